import Foundation

/**
Turns an arbitrary Swift value into an object Linux Foundation can store.

Foundation on Linux traps on `CGFloat`, calls `fatalError` on `UUID`, `URL`
arrays, structs and non-string dictionary keys, and hangs on a literal `nil`.
Everything the library writes passes through here (or through a codec that
only produces these shapes), so none of that reaches `UserDefaults.set`.
Values that are themselves `Defaults.Serializable` (a `URL` inside a custom
bridge's `[String: Any]`, say) are stored through their own codec.
*/
enum PropertyListNormalizer {
	static func normalize(_ value: Any) throws(SerializationError) -> Any {
		if let number = PropertyListValue.foundationNumber(value) {
			return PropertyListValue(number: number).object
		}

		switch value {
		case let string as String:
			return string
		case let bool as Bool:
			return bool
		case let data as Data:
			return data
		case let date as Date:
			return date
		case let double as Double:
			return double
		case let float as Float:
			return float
		case let cgFloat as CGFloat:
			return Double(cgFloat)
		case let integer as any FixedWidthInteger:
			return try normalize(integer: integer)
		case let array as [Any]:
			return try normalize(array: array)
		case let dictionary as [String: Any]:
			return try normalize(dictionary: dictionary)
		case let dictionary as [AnyHashable: Any]:
			var converted: [String: Any] = [:]
			for (key, element) in dictionary {
				guard let key = key.base as? String else {
					throw SerializationError("dictionary key \(key.base) is not a String")
				}

				converted[key] = element
			}

			return try normalize(dictionary: converted)
		case let serializable as any Defaults.Serializable:
			return try encode(serializable)
		default:
			throw .notPropertyList(value)
		}
	}

	private static func normalize(integer: some FixedWidthInteger) throws(SerializationError) -> Any {
		if let int = Int(exactly: integer) {
			return int
		}

		if let unsigned = UInt64(exactly: integer) {
			return unsigned
		}

		throw SerializationError("\(integer) does not fit in 64 bits")
	}

	private static func normalize(array: [Any]) throws(SerializationError) -> [Any] {
		var result: [Any] = []
		result.reserveCapacity(array.count)
		for element in array {
			guard let element = unwrapOptional(element) else {
				continue
			}

			result.append(try normalize(element))
		}

		return result
	}

	private static func normalize(dictionary: [String: Any]) throws(SerializationError) -> [String: Any] {
		var result: [String: Any] = [:]
		result.reserveCapacity(dictionary.count)
		for (key, element) in dictionary {
			guard let element = unwrapOptional(element) else {
				continue
			}

			result[key] = try normalize(element)
		}

		return result
	}

	private static func encode<Value: Defaults.Serializable>(_ value: Value) throws(SerializationError) -> Any {
		guard Value.self is any PlistCodecProviding.Type || !Value.isNativelySupportedType else {
			throw .notPropertyList(value)
		}

		return try PlistCodec<Value>.resolve().encodeObject(value)
	}
}

/// Sees through an `Optional` hidden in an `Any`; `nil` when it holds none.
/// Property lists have no null, so such elements are left out of containers.
func unwrapOptional(_ value: Any) -> Any? {
	if let optional = value as? any OptionalValue {
		return optional.wrappedAny
	}

	return value
}

/// Lets code holding an `Any` see through an `Optional` of any wrapped type.
protocol OptionalValue {
	var wrappedAny: Any? { get }
}

extension Optional: OptionalValue {
	var wrappedAny: Any? {
		switch self {
		case .some(let wrapped):
			(wrapped as? any OptionalValue)?.wrappedAny ?? wrapped
		case .none:
			nil
		}
	}
}
