import Foundation

extension Defaults {
	/**
	Stores a `URL` as a JSON string of its absolute string, keeping scheme, host, query and fragment.

	Foundation on Linux keeps only the path when a `URL` is stored directly
	(`https://x.y/a?q` becomes `/a`); this bridge avoids that.

	```swift
	extension Defaults.Keys {
		static let homepage = Key<URL>("homepage", default: URL(string: "https://example.com")!)
	}
	// Stored as the string "https:\/\/example.com", quotes included.
	```
	*/
	public struct URLBridge: CodableBridge, Sendable {
		public typealias Value = URL

		/// Creates the bridge.
		public init() {}

		public func serialize(_ value: URL?) -> String? {
			guard let value else {
				return nil
			}

			return TopLevelCodableBridge<String>().serialize(value.absoluteString)
		}

		/// Reads the JSON form, and also a bare URL string written by other tools.
		public func deserialize(_ object: String?) -> URL? {
			guard let object else {
				return nil
			}

			let string = TopLevelCodableBridge<String>().deserialize(object) ?? object
			return URL(string: string)
		}
	}

	/**
	Stores a `UUID` as its `uuidString`.

	```swift
	extension Defaults.Keys {
		static let installID = Key<UUID>("installID", default: UUID())
	}
	```
	*/
	public struct UUIDBridge: Bridge, Sendable {
		public typealias Value = UUID
		public typealias Serializable = String

		/// Creates the bridge.
		public init() {}

		public func serialize(_ value: UUID?) -> String? {
			value?.uuidString
		}

		public func deserialize(_ object: String?) -> UUID? {
			object.flatMap(UUID.init(uuidString:))
		}
	}

	/**
	Stores a `RawRepresentable` type as its raw value (which is serialized further if needed).

	```swift
	enum Duration: String, Defaults.Serializable {
		case short = "10 Minutes"
	}
	// Stored as the string 10 Minutes.
	```
	*/
	public struct RawRepresentableBridge<Value: RawRepresentable>: Bridge, Sendable {
		public typealias Serializable = Value.RawValue

		/// Creates the bridge.
		public init() {}

		public func serialize(_ value: Value?) -> Value.RawValue? {
			value?.rawValue
		}

		public func deserialize(_ object: Value.RawValue?) -> Value? {
			object.flatMap(Value.init(rawValue:))
		}
	}
}
