import Foundation

extension Defaults {
	/**
	Stores an `NSSecureCoding` object as `Data` from `NSKeyedArchiver` with secure coding.

	Before unarchiving, the archive is checked to hold an object of `Value`'s
	class: Foundation on Linux crashes instead of failing when it does not.

	```swift
	final class Bookmark: NSObject, NSSecureCoding, Defaults.Serializable {
		static var supportsSecureCoding: Bool { true }
		// …
	}
	```
	*/
	public struct NSSecureCodingBridge<Value: NSObject & NSSecureCoding>: Bridge, Sendable {
		public typealias Serializable = Data

		/// Creates the bridge.
		public init() {}

		public func serialize(_ value: Value?) -> Data? {
			guard let value else {
				return nil
			}

			return try? NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: true)
		}

		public func deserialize(_ object: Data?) -> Value? {
			guard let object, KeyedArchiveInspector.rootObject(of: object, isA: Value.self) else {
				return nil
			}

			return try? NSKeyedUnarchiver.unarchivedObject(ofClass: Value.self, from: object)
		}
	}
}
