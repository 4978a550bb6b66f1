import Foundation

// The public container bridges. Each delegates to its type's codec, so the
// bridge and the library's own reads and writes store exactly the same shape.

extension Defaults {
	/**
	Stores an optional as its wrapped type; `nil` serializes to `nil`, which removes the key.

	```swift
	extension Defaults.Keys {
		static let name = Key<String?>("name")
	}
	Defaults[.name] = nil // removes the stored value
	```
	*/
	public struct OptionalBridge<Wrapped: Defaults.Serializable>: Bridge, Sendable {
		public typealias Value = Wrapped.Value
		public typealias Serializable = Wrapped.Serializable

		/// Creates the bridge.
		public init() {}

		public func serialize(_ value: Value?) -> Serializable? {
			Wrapped.bridge.serialize(value)
		}

		public func deserialize(_ object: Serializable?) -> Value? {
			Wrapped.bridge.deserialize(object)
		}
	}

	/**
	Stores an array as a property-list array of its elements' stored forms.

	```swift
	extension Defaults.Keys {
		static let recent = Key<[URL]>("recent", default: [])
	}
	```
	*/
	public struct ArrayBridge<Element: Defaults.Serializable>: Bridge, Sendable {
		public typealias Value = [Element]
		public typealias Serializable = Any

		/// Creates the bridge.
		public init() {}

		public func serialize(_ value: Value?) -> Serializable? {
			value.flatMap { try? Value.plistCodec.encodeObject($0) }
		}

		public func deserialize(_ object: Serializable?) -> Value? {
			object.flatMap { try? Value.plistCodec.decode($0) }
		}
	}

	/**
	Stores a set as a property-list array, in no particular order.

	```swift
	extension Defaults.Keys {
		static let tags = Key<Set<String>>("tags", default: [])
	}
	```
	*/
	public struct SetBridge<Element: Defaults.Serializable & Hashable>: Bridge, Sendable {
		public typealias Value = Set<Element>
		public typealias Serializable = Any

		/// Creates the bridge.
		public init() {}

		public func serialize(_ value: Value?) -> Serializable? {
			value.flatMap { try? Value.plistCodec.encodeObject($0) }
		}

		public func deserialize(_ object: Serializable?) -> Value? {
			object.flatMap { try? Value.plistCodec.decode($0) }
		}
	}

	/**
	Stores a dictionary as `[String: …]`: keys with `String(key)`, values through their bridge.

	```swift
	extension Defaults.Keys {
		static let scores = Key<[Int: Double]>("scores", default: [:])
	}
	// Stored as ["1": 0.5, …]
	```
	*/
	public struct DictionaryBridge<Key: LosslessStringConvertible & Hashable, Element: Defaults.Serializable>: Bridge, Sendable {
		public typealias Value = [Key: Element]
		public typealias Serializable = Any

		/// Creates the bridge.
		public init() {}

		public func serialize(_ value: Value?) -> Serializable? {
			value.flatMap { try? Value.plistCodec.encodeObject($0) }
		}

		public func deserialize(_ object: Serializable?) -> Value? {
			object.flatMap { try? Value.plistCodec.decode($0) }
		}
	}

	/**
	Stores a custom ``Defaults/SetAlgebraSerializable`` as a property-list array.

	```swift
	extension Defaults.Keys {
		static let flags = Key<SetBag<String>>("flags", default: SetBag())
	}
	```
	*/
	public struct SetAlgebraBridge<Value: Defaults.SetAlgebraSerializable>: Bridge, Sendable where Value.Element: Defaults.Serializable {
		/// The set's element type, stored through its own bridge.
		public typealias Element = Value.Element
		public typealias Serializable = Any

		/// Creates the bridge.
		public init() {}

		public func serialize(_ value: Value?) -> Serializable? {
			value.flatMap { try? SequenceCodec<Element>().encode($0.toArray()) }
		}

		public func deserialize(_ object: Serializable?) -> Value? {
			object.flatMap { try? Value(SequenceCodec<Element>().decode($0)) }
		}
	}

	/**
	Stores a custom ``Defaults/CollectionSerializable`` as a property-list array.

	```swift
	extension Defaults.Keys {
		static let bag = Key<Bag<String>>("bag", default: Bag(["Hello"]))
	}
	```
	*/
	public struct CollectionBridge<Value: Defaults.CollectionSerializable>: Bridge, Sendable where Value.Element: Defaults.Serializable {
		/// The collection's element type, stored through its own bridge.
		public typealias Element = Value.Element
		public typealias Serializable = Any

		/// Creates the bridge.
		public init() {}

		public func serialize(_ value: Value?) -> Serializable? {
			value.flatMap { try? SequenceCodec<Element>().encode($0) }
		}

		public func deserialize(_ object: Serializable?) -> Value? {
			object.flatMap { try? Value(SequenceCodec<Element>().decode($0)) }
		}
	}

	/**
	Stores a ``Defaults/Range`` as the two-element array `[lowerBound, upperBound]`.

	```swift
	extension Defaults.Keys {
		static let volume = Key<ClosedRange<Double>>("volume", default: 0...1)
	}
	```
	*/
	public struct RangeBridge<Value: Defaults.Range>: Bridge, Sendable {
		/// The range's bound type, stored through its own bridge.
		public typealias Bound = Value.Bound
		public typealias Serializable = Any

		/// Creates the bridge.
		public init() {}

		public func serialize(_ value: Value?) -> Serializable? {
			guard let value else {
				return nil
			}

			return try? SequenceCodec<Bound>().encode([value.lowerBound, value.upperBound])
		}

		public func deserialize(_ object: Serializable?) -> Value? {
			guard
				let object,
				let bounds = try? SequenceCodec<Bound>().decode(object),
				bounds.count == 2,
				bounds[0] <= bounds[1]
			else {
				return nil
			}

			return Value(uncheckedBounds: (lower: bounds[0], upper: bounds[1]))
		}
	}
}
