import Foundation
import Synchronization

extension Defaults {
	/**
	A typed key: a name, a suite, a value type and a default value.

	```swift
	extension Defaults.Keys {
		static let quality = Key<Double>("quality", default: 0.8)
		static let name = Key<String?>("name")                        // default nil
		static let launchDate = Key<Date>("launchDate") { Date() }    // dynamic default
		static let shared = Key<Bool>("shared", default: true, suite: UserDefaults(suiteName: "group")!)
	}

	Defaults[.quality] = 0.5
	```
	*/
	public final class Key<Value: Defaults.Serializable>: _AnyKey, @unchecked Sendable {
		private let defaultValueGetter: () -> Value

		/// The conversion between `Value` and its stored form, resolved once for the key.
		let codec: PlistCodec<Value>

		/// Present when the codec's decoding is worth remembering.
		let decodedValues: DecodedValueCache<Value>?

		// What this key last read (``LastReadLocks``), touched only under its mutex: kept in fields of fixed layout, so that
		// a read that finds it current costs no generic layout work, and the value out of line, allocated at the first one.
		// The version is also published atomically: a read of a suite that changed since sees it differs and takes no lock.
		// Versions are unique across every suite of the process, so the version alone also says which suite was read.
		// A value of a plain type of at most 8 bytes (`Int`, `Bool`, `Double`, a small enum…) is kept in `lastReadBits`
		// instead, which a read that hits loads without any lock (``LastReadLocks``).
		let lastReadVersion = Atomic<UInt64>(0)
		let lastReadBits = Atomic<UInt64>(0)
		@exclusivity(unchecked) var lastReadValue: UnsafeMutablePointer<Value>?

		/// Whether the default is a value rather than a closure called at each read: a read that finds nothing may be remembered too.
		let hasStaticDefault: Bool

		/// The value read when nothing is stored. Calls the dynamic default's closure, if the key has one.
		public var defaultValue: Value { defaultValueGetter() }

		/**
		Creates a key with a static default, registered with `suite` so raw `UserDefaults` reads see it.

		```swift
		extension Defaults.Keys {
			static let quality = Key<Double>("quality", default: 0.8)
		}
		```
		*/
		public convenience init(_ name: String, default defaultValue: Value, suite: UserDefaults = .standard, iCloud: Bool = false) {
			self.init(name: name, suite: suite, iCloud: iCloud, previousNames: [], defaultValueGetter: { defaultValue }, registersDefault: true)
		}

		/**
		Creates a key that was stored under other names before: a key renamed
		in a new version of the app keeps the value its users stored.

		When nothing is stored under `name` and something is under one of
		`previousNames` (the first one that has a value wins), the value moves
		to `name` as one step, under the suite's inter-process lock: no process
		sees it under both names or under neither, observers of this key hear
		it, and the previous names are removed (for a synced key, on the remote
		too, so no device brings them back). It happens when the key is
		created, once; later it finds the value already moved.

		```swift
		extension Defaults.Keys {
			// Stored as "fontSize" in version 1, "textSize" in version 2.
			static let readingTextSize = Key<Double>("readingTextSize", default: 14, previousNames: ["textSize", "fontSize"])
		}
		```
		*/
		public convenience init(_ name: String, default defaultValue: Value, suite: UserDefaults = .standard, iCloud: Bool = false, previousNames: [String]) {
			self.init(name: name, suite: suite, iCloud: iCloud, previousNames: previousNames, defaultValueGetter: { defaultValue }, registersDefault: true)
		}

		/**
		Creates a key whose default is computed on each read that finds nothing stored.

		The closure is never called here, and the default is not registered with the suite.

		```swift
		extension Defaults.Keys {
			static let camera = Key<String>("camera") { ProcessInfo.processInfo.hostName }
		}
		```
		*/
		public convenience init(_ name: String, suite: UserDefaults = .standard, iCloud: Bool = false, default defaultValueGetter: @escaping () -> Value) {
			self.init(name: name, suite: suite, iCloud: iCloud, previousNames: [], defaultValueGetter: defaultValueGetter, registersDefault: false)
		}

		/**
		Creates a key with a dynamic default that was stored under other names
		before (see ``init(_:default:suite:iCloud:previousNames:)``).

		```swift
		extension Defaults.Keys {
			static let camera = Key<String>("camera", previousNames: ["cameraName"]) { ProcessInfo.processInfo.hostName }
		}
		```
		*/
		public convenience init(_ name: String, suite: UserDefaults = .standard, iCloud: Bool = false, previousNames: [String], default defaultValueGetter: @escaping () -> Value) {
			self.init(name: name, suite: suite, iCloud: iCloud, previousNames: previousNames, defaultValueGetter: defaultValueGetter, registersDefault: false)
		}

		deinit {
			if let lastReadValue {
				lastReadValue.deinitialize(count: 1)
				lastReadValue.deallocate()
			}
		}

		/**
		`registersDefault`: the default is static (`defaultValueGetter` returns
		the same value each time) and is registered with the suite; dynamic
		defaults and secrets' defaults are never registered. A flag rather than
		the value as an optional: in this generic code, an optional of `Value`
		costs a look-up of its type's metadata at each declaration (a tenth of
		one, not counting Foundation's `register`).
		*/
		init(
			name: String,
			suite: UserDefaults,
			iCloud: Bool,
			previousNames: [String],
			defaultValueGetter: @escaping () -> Value,
			registersDefault: Bool,
			isSecret: Bool = false
		) {
			self.defaultValueGetter = defaultValueGetter
			self.codec = PlistCodec<Value>.resolve()
			self.decodedValues = codec.cachesDecodedValues ? DecodedValueCache() : nil
			self.hasStaticDefault = registersDefault
			super.init(name: name, suite: suite, isSecret: isSecret)
			if registersDefault {
				register(defaultValueGetter())
			}

			if iCloud {
				Defaults.iCloud.add(self)
			}

			if !previousNames.isEmpty {
				processWideSuite.adoptValue(of: previousNames, as: name)
			}
		}

		private func register(_ defaultValue: Value) {
			do {
				if case .object(let object) = try codec.encode(defaultValue) {
					// The key's default belongs to the process-wide suite, whichever test happens to create the key.
					processWideSuite.register(object, forKey: name)
				}
			} catch {
				DiagnosticReporter.report(.unencodableValue, key: name, "the default value cannot be registered: \(error)")
			}
		}
	}
}

extension Defaults.Key {
	/**
	Creates an optional key whose default is `nil`.

	```swift
	extension Defaults.Keys {
		static let name = Key<String?>("name")
	}
	```
	*/
	public convenience init<T>(_ name: String, suite: UserDefaults = .standard, iCloud: Bool = false) where Value == T? {
		self.init(name, default: nil, suite: suite, iCloud: iCloud)
	}

	/**
	Creates an optional key whose default is `nil`, stored under other names
	before (see ``init(_:default:suite:iCloud:previousNames:)``).

	```swift
	extension Defaults.Keys {
		static let nickname = Key<String?>("nickname", previousNames: ["name"])
	}
	```
	*/
	public convenience init<T>(_ name: String, suite: UserDefaults = .standard, iCloud: Bool = false, previousNames: [String]) where Value == T? {
		self.init(name, default: nil, suite: suite, iCloud: iCloud, previousNames: previousNames)
	}
}

extension Defaults.Key where Value: Equatable {
	/**
	Whether the key currently reads its default value.

	```swift
	Defaults[.quality] = 0.8
	print(Defaults.Keys.quality.isDefaultValue) // true
	```
	*/
	public var isDefaultValue: Bool {
		suite[self] == defaultValue
	}
}
