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
		let path: String

		init(path: String) {
			self.path = path
		}

		init?(coder: NSCoder) {
			guard let path = coder.decodeObject(of: NSString.self, forKey: "path") else {
				return nil
			}

			self.path = path as String
		}

		func encode(with coder: NSCoder) {
			coder.encode(path as NSString, forKey: "path")
		}
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
