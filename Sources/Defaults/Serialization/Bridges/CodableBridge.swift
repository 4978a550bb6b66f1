import Foundation

extension Defaults.CodableBridge {
	/// Encodes the value as JSON with sorted keys, the format the Defaults package stores.
	public func serialize(_ value: Value?) -> Serializable? {
		guard let value else {
			return nil
		}

		let encoder = JSONEncoder()
		encoder.outputFormatting = .sortedKeys
		guard let data = try? encoder.encode(value) else {
			return nil
		}

		return String(decoding: data, as: UTF8.self)
	}

	/// Decodes the JSON string; `nil` when it is not valid JSON for `Value`.
	public func deserialize(_ object: Serializable?) -> Value? {
		guard let object else {
			return nil
		}

		return try? JSONDecoder().decode(Value.self, from: Data(object.utf8))
	}
}

extension Defaults {
	/**
	Stores any `Codable` value as a JSON string. The default for `Codable` types.

	```swift
	struct Window: Codable, Defaults.Serializable {
		var width = 800
		var height = 600
	}
	// Stored as the string {"height":600,"width":800}
	```
	*/
	public struct TopLevelCodableBridge<Value: Codable>: CodableBridge, Sendable {
		/// Creates the bridge.
		public init() {}
	}

	/**
	Stores a `Codable & RawRepresentable` type as JSON, so a `String` enum case `x` is stored as `"x"`.

	```swift
	enum Theme: String, Codable, Defaults.Serializable { case light, dark }
	// Defaults[.theme] = .dark stores the string "dark" with its quotes.
	```
	*/
	public struct RawRepresentableCodableBridge<Value: RawRepresentable & Codable>: CodableBridge, Sendable {
		/// Creates the bridge.
		public init() {}
	}

	/**
	Stores a class that is both `Codable` and `NSSecureCoding` as JSON (`Codable` wins).

	Adopt ``Defaults/PreferNSSecureCoding`` to store a keyed archive instead.

	```swift
	final class Note: NSObject, NSSecureCoding, Codable, Defaults.Serializable {
		static var supportsSecureCoding: Bool { true }
		let text: String

		init(text: String) {
			self.text = text
		}

		init?(coder: NSCoder) {
			guard let text = coder.decodeObject(of: NSString.self, forKey: "text") else {
				return nil
			}

			self.text = text as String
		}

		func encode(with coder: NSCoder) {
			coder.encode(text as NSString, forKey: "text")
		}
	}
	// Stored as JSON through this bridge.
	```
	*/
	public struct CodableNSSecureCodingBridge<Value: Codable & NSSecureCoding & NSObject>: CodableBridge, Sendable {
		/// Creates the bridge.
		public init() {}
	}
}
