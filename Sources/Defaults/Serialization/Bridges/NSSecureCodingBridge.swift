import Foundation

extension Defaults {
	/**
	Stores an `NSSecureCoding` object as `Data` from `NSKeyedArchiver` with secure coding.

	No stored bytes crash the reader: the whole archive is checked before it is
	unarchived (Foundation on Linux traps on a wrong class or a reference cycle
	instead of failing), and a value whose class Foundation cannot name (a
	`private`, nested or generic class) is not written, with a diagnostic.

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

			return KeyedArchiveCoding.archive(value)
		}

		public func deserialize(_ object: Data?) -> Value? {
			object.flatMap { KeyedArchiveCoding.unarchive(Value.self, from: $0) }
		}
	}
}
