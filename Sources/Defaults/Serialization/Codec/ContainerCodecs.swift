import Foundation

// Codecs for the standard containers, composed from their elements' codecs.
// The public container bridges delegate to these, so each shape has one implementation.

extension Optional: PlistCodecProviding where Wrapped: Defaults.Serializable {
	static var plistCodec: PlistCodec<Self> {
		let wrapped = PlistCodec<Wrapped>.resolve()
		return PlistCodec(
			encode: { value throws(SerializationError) in
				guard let value else {
					return .absent
				}

				return try wrapped.encode(value)
			},
			decode: { object throws(SerializationError) in try wrapped.decode(object) },
			cachesDecodedValues: wrapped.cachesDecodedValues,
			decodesToValues: wrapped.decodesToValues
		)
	}
}

extension Array: PlistCodecProviding where Element: Defaults.Serializable {
	static var plistCodec: PlistCodec<Self> {
		let sequence = SequenceCodec<Element>()
		return PlistCodec(
			encode: { array throws(SerializationError) in .object(try sequence.encode(array)) },
			decode: { object throws(SerializationError) in try sequence.decode(object) },
			cachesDecodedValues: sequence.cachesDecodedValues,
			decodesToValues: sequence.decodesToValues
		)
	}
}

extension Set: PlistCodecProviding where Element: Defaults.Serializable {
	static var plistCodec: PlistCodec<Self> {
		let sequence = SequenceCodec<Element>()
		return PlistCodec(
			encode: { set throws(SerializationError) in .object(try sequence.encode(set)) },
			decode: { object throws(SerializationError) in Set(try sequence.decode(object)) },
			cachesDecodedValues: sequence.cachesDecodedValues,
			decodesToValues: sequence.decodesToValues
		)
	}
}

extension Dictionary: PlistCodecProviding where Key: LosslessStringConvertible & Hashable, Value: Defaults.Serializable {
	static var plistCodec: PlistCodec<Self> {
		let element = PlistCodec<Value>.resolve()
		return PlistCodec(
			encode: { dictionary throws(SerializationError) in
				var stored: [String: Any] = [:]
				stored.reserveCapacity(dictionary.count)
				for (key, value) in dictionary {
					if case .object(let object) = try element.encode(value) {
						stored[String(key)] = object
					}
				}

				return .object(stored)
			},
			decode: { object throws(SerializationError) in
				guard let stored = StoredContainer.dictionary(object) else {
					throw .mismatch(object, expected: Self.self)
				}

				var dictionary: Self = [:]
				dictionary.reserveCapacity(stored.count)
				for (name, storedValue) in stored {
					guard let key = Key(name) else {
						throw SerializationError("dictionary key '\(name)' is not a valid \(Key.self)")
					}

					dictionary[key] = try element.decode(storedValue)
				}

				return dictionary
			},
			cachesDecodedValues: element.cachesDecodedValues,
			decodesToValues: element.decodesToValues
		)
	}
}

/// Arrays, sets and custom collections share one element-wise mapping.
struct SequenceCodec<Element: Defaults.Serializable> {
	private let element = PlistCodec<Element>.resolve()

	/// Arrays of strings, data or dates are read with one cast, as fast as raw `UserDefaults`.
	private let castsWholeArrays = Element.self is any PlistExactPrimitive.Type

	var cachesDecodedValues: Bool {
		element.cachesDecodedValues
	}

	var decodesToValues: Bool {
		element.decodesToValues
	}

	/// `nil` elements are left out: a property list has no null.
	func encode(_ elements: some Sequence<Element>) throws(SerializationError) -> [Any] {
		var stored: [Any] = []
		stored.reserveCapacity(elements.underestimatedCount)
		for value in elements {
			if case .object(let object) = try element.encode(value) {
				stored.append(object)
			}
		}

		return stored
	}

	func decode(_ object: Any) throws(SerializationError) -> [Element] {
		if castsWholeArrays, let elements = object as? [Element] {
			return elements
		}

		guard let stored = StoredContainer.array(object) else {
			throw .mismatch(object, expected: [Element].self)
		}

		var elements: [Element] = []
		elements.reserveCapacity(stored.count)
		for storedElement in stored {
			elements.append(try element.decode(storedElement))
		}

		return elements
	}
}

/// Reads the container shapes Foundation returns (`[Optional<Any>]`, `[AnyHashable: Optional<Any>]`).
enum StoredContainer {
	static func array(_ object: Any) -> [Any]? {
		guard let array = object as? [Any] else {
			return nil
		}

		return array.compactMap(unwrapOptional)
	}

	static func dictionary(_ object: Any) -> [String: Any]? {
		if let dictionary = object as? [String: Any] {
			return dictionary.compactMapValues(unwrapOptional)
		}

		guard let dictionary = object as? [AnyHashable: Any] else {
			return nil
		}

		var result: [String: Any] = [:]
		for (key, value) in dictionary {
			guard let key = key.base as? String else {
				return nil
			}

			result[key] = unwrapOptional(value)
		}

		return result
	}
}
