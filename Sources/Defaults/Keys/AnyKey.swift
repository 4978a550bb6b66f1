import Foundation

extension Defaults {
	/**
	The untyped base of every key: a name in a suite.

	Declare your keys as static members of ``Defaults/Keys`` so they can be used
	with leading-dot syntax. Keys are equal when their names and suites are.

	```swift
	extension Defaults.Keys {
		static let isUnicornMode = Key<Bool>("isUnicornMode", default: false)
	}

	Defaults.Keys.isUnicornMode.reset()
	```
	*/
	public class _AnyKey: @unchecked Sendable {
		/// Lets `Key<Value>(…)` be written inside `extension Defaults.Keys`.
		public typealias Key = Defaults.Key

		/// The name the value is stored under in the suite.
		public let name: String

		/// The `UserDefaults` suite the value lives in.
		public let suite: UserDefaults

		/// The process-wide object that holds `suite`'s values, observers and file, found once.
		let processWideSuite: Suite

		/**
		Whether the key holds a secret: its value lives in a secret store (the
		Secret Service, a systemd credential) and in memory, never in the
		suite's file. Declared with `secret: true` (see <doc:Secrets>).

		```swift
		extension Defaults.Keys {
			static let apiToken = Key<String?>("apiToken", secret: true)
		}

		print(Defaults.Keys.apiToken.isSecret) // true
		```
		*/
		public let isSecret: Bool

		/// The object every access of the key reads and writes: `processWideSuite`, or, inside an isolated test, that test's copy of it.
		var suiteObject: Suite {
			// One relaxed load and a branch until a test isolates itself for the first time in the process.
			SuiteIsolation.mayBeActive ? processWideSuite.isolatedCopy() : processWideSuite
		}

		/// The suite object an access of the key through `defaults` reads and writes; kept out of line, off the production path.
		@inline(never)
		func suiteObject(for defaults: UserDefaults) -> Suite {
			defaults === suite ? suiteObject : Suite.of(defaults)
		}

		init(name: String, suite: UserDefaults, isSecret: Bool = false) {
			self.name = name
			self.suite = suite
			self.isSecret = isSecret
			KeyName.validate(name)
			// Found once: every read and write of the key goes straight to it. The process-wide one even
			// inside an isolated test, since a key declared as a global is created by the first test that uses it.
			processWideSuite = Suite.processWide(suite)
		}

		/**
		Removes the stored value, so the key reads its default again.

		```swift
		Defaults.Keys.isUnicornMode.reset()
		```
		*/
		public func reset() {
			if isSecret {
				resetSecret(in: suiteObject)
				return
			}

			suiteObject.change(name, to: nil, origin: .local)
		}
	}

	/**
	The namespace for your keys: extend it with static properties.

	```swift
	extension Defaults.Keys {
		static let quality = Key<Double>("quality", default: 0.8)
	}
	```
	*/
	public typealias Keys = _AnyKey

	/// Any key, regardless of its value type. Same as ``Defaults/Keys``.
	public typealias AnyKey = _AnyKey
}

extension Defaults._AnyKey: Equatable {
	public static func == (lhs: Defaults._AnyKey, rhs: Defaults._AnyKey) -> Bool {
		lhs.name == rhs.name && lhs.suite === rhs.suite
	}
}

extension Defaults._AnyKey: Hashable {
	public func hash(into hasher: inout Hasher) {
		hasher.combine(name)
		hasher.combine(ObjectIdentifier(suite))
	}
}
