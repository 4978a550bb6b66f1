import Foundation

extension Defaults {
	/**
	One change to one key of a suite, as whole-suite observers hear it
	(``Defaults/observe(suite:isolation:handler:)``, ``Defaults/updates(suite:)``).

	It names the key, declared or not: read the new value through your key, or
	as a raw value from the suite (a reset or a removal is a change too: reads
	then return the default).

	```swift
	let observation = Defaults.observe(suite: .standard) { change in
		if change.affects(.quality) {
			print("quality is now \(Defaults[.quality])")
		}
		print("\(change.name) changed")
	}
	```
	*/
	public struct SuiteChange: Hashable, Sendable, CustomStringConvertible {
		/// The name of the key that changed.
		public let name: String

		/// A change of the key called `name`.
		public init(name: String) {
			self.name = name
		}

		/// Whether this change is to `key` (the same name; the suite is the one observed).
		public func affects(_ key: _AnyKey) -> Bool {
			key.name == name
		}

		/// The key's name.
		public var description: String {
			name
		}
	}
}

extension Defaults.SuiteChange {
	init(_ change: RawChange) {
		self.init(name: change.name)
	}
}
