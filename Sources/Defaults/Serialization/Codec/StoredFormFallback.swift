import Foundation

/**
Reads a stored value that the key's own bridge does not, in another form the
type supports: what an older version of the app (or another library) stored
before the type's conformances changed.

A type that gained `Codable` keeps finding the raw value it stored as
`RawRepresentable`; one that lost it finds its JSON; `Codable` values that
SwiftyUserDefaults, swift-user-defaults or a `@UserDefault` wrapper stored as
JSON or property-list `Data` read back, and so does a keyed archive of an
`NSSecureCoding` class. The caller reports the value once and keeps the stored
object: the next write stores the key's own form.

Only forms of the same value are tried, each checked by decoding: a form that
does not decode is no answer, so nothing is ever guessed across kinds.
*/
enum StoredFormFallback {
	/// `object` decoded as `type` through a form other than its bridge's, with a description of that form; `nil` when no form reads it.
	static func decode<Value>(_ object: Any, as type: Value.Type) -> (value: Value, form: String)? {
		if let optional = type as? any OptionalType.Type {
			return wrappedDecoded(object, optional).flatMap { found in (found.value as? Value).map { ($0, found.form) } }
		}

		return decoded(object, as: type)
	}

	/// Whether `type` (or the type an optional wraps) is stored as it is by every library: a number, string, date, URL, UUID, or a collection of them, which no other form reads as.
	static func hasNoOtherForms(_ type: Any.Type) -> Bool {
		if let optional = type as? any OptionalType.Type {
			return hasNoOtherForms(optional.wrappedType)
		}

		return !hasOtherForms(type)
	}

	private static func wrappedDecoded<Wrapper: OptionalType>(_ object: Any, _: Wrapper.Type) -> (value: Wrapper, form: String)? {
		decoded(object, as: Wrapper.Wrapped.self).map { (Wrapper(wrapping: $0.value), $0.form) }
	}

	private static func decoded<Value>(_ object: Any, as type: Value.Type) -> (value: Value, form: String)? {
		guard hasOtherForms(type) else {
			return nil
		}

		if let raw = type as? any RawRepresentable.Type, let found = rawRepresented(object, as: raw), let value = found.value as? Value {
			return (value, found.form)
		}

		if let decodable = type as? any Decodable.Type, let found = decodedAsCodable(object, as: decodable), let value = found.value as? Value {
			return (value, found.form)
		}

		if let archivable = type as? any (NSObject & NSSecureCoding).Type, let data = object as? Data, let value = unarchived(data, as: archivable) as? Value {
			return (value, "a keyed archive")
		}

		return nil
	}

	/**
	Whether the type has forms besides its own: a type of the app's (`Codable`,
	`RawRepresentable`, `NSSecureCoding`), or a collection of such. Numbers,
	strings, dates, URLs, UUIDs and collections of them are stored as they are
	by every library: reading one from anything else would be a guess across kinds.
	*/
	private static func hasOtherForms(_ type: Any.Type) -> Bool {
		if let container = type as? any ContainerType.Type {
			return hasOtherForms(container.elementType)
		}

		if let serializable = type as? any Defaults.Serializable.Type, serializable.isNativelySupportedType {
			return false
		}

		return !(type is any BinaryInteger.Type || type is any BinaryFloatingPoint.Type || type == URL.self || type == UUID.self)
	}

	/// The raw value itself (`"dark"` for a type now stored as JSON), or its JSON (`"\"dark\""` for a type no longer `Codable`).
	private static func rawRepresented<Raw: RawRepresentable>(_ object: Any, as _: Raw.Type) -> (value: Raw, form: String)? {
		if let rawValue = object as? Raw.RawValue, let value = Raw(rawValue: rawValue) {
			return (value, "its raw value")
		}

		guard
			let decodableRaw = Raw.RawValue.self as? any Decodable.Type,
			let json = object as? String,
			let rawValue = try? JSONDecoder().decode(decodableRaw, from: Data(json.utf8)) as? Raw.RawValue,
			let value = Raw(rawValue: rawValue)
		else {
			return nil
		}

		return (value, "its raw value as JSON")
	}

	/// JSON or property-list `Data` (other libraries' `Codable` forms), a JSON string, or a property-list object encoded by `PropertyListEncoder`.
	private static func decodedAsCodable<Decoded: Decodable>(_ object: Any, as type: Decoded.Type) -> (value: Decoded, form: String)? {
		switch object {
		case let data as Data:
			if let value = try? JSONDecoder().decode(type, from: data) {
				return (value, "JSON data")
			}

			if let value = try? PropertyListDecoder().decode(type, from: data) {
				return (value, "property-list data")
			}

			return nil
		case let json as String:
			return (try? JSONDecoder().decode(type, from: Data(json.utf8))).map { ($0, "a JSON string") }
		default:
			guard
				PropertyListSerialization.propertyList(object, isValidFor: .binary),
				let data = try? PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0),
				let value = try? PropertyListDecoder().decode(type, from: data)
			else {
				return nil
			}

			return (value, "a property-list object")
		}
	}

	private static func unarchived<Archived: NSObject & NSSecureCoding>(_ data: Data, as type: Archived.Type) -> Archived? {
		KeyedArchiveCoding.unarchive(type, from: data)
	}
}

/// `Optional`, seen from code that only has its type: the fallback reads the wrapped type's forms.
private protocol OptionalType {
	associatedtype Wrapped
	init(wrapping value: Wrapped)
}

extension OptionalType {
	static var wrappedType: Any.Type {
		Wrapped.self
	}
}

extension Optional: OptionalType {
	fileprivate init(wrapping value: Wrapped) {
		self = .some(value)
	}
}

/// A standard collection, seen from code that only has its type: it has other forms when its elements do.
private protocol ContainerType {
	static var elementType: Any.Type { get }
}

extension Array: ContainerType {
	fileprivate static var elementType: Any.Type { Element.self }
}

extension Set: ContainerType {
	fileprivate static var elementType: Any.Type { Element.self }
}

extension Dictionary: ContainerType {
	fileprivate static var elementType: Any.Type { Value.self }
}
