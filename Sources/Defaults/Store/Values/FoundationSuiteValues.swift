import Foundation

/**
A suite whose values `UserDefaults` itself keeps: on Apple platforms, where
the system's preferences daemon is the store, and for suites that live in
memory only (`InMemoryDefaults`) everywhere.

Every call goes to the `UserDefaults` object. Versions cannot be told apart
(`0`): a key remembers what it decoded together with the object it came from.
The registered defaults of this suite's keys are also remembered here, to tell
them from stored values where Foundation cannot name the suite's domain.
*/
final class FoundationSuiteValues: SuiteValueStore {
	// `UserDefaults` is documented as thread-safe, though not marked `Sendable`.
	nonisolated(unsafe) private let defaults: UserDefaults
	private let identity: SuiteIdentity
	private let registered = Locked<[String: PropertyListValue]>([:])

	init(_ defaults: UserDefaults, identity: SuiteIdentity) {
		self.defaults = defaults
		self.identity = identity
	}

	/// Foundation's store changes without telling: every read asks it.
	var currentVersion: UInt64 {
		0
	}

	func entry(forKey name: String) -> SuiteEntry? {
		guard let object = defaults.object(forKey: name) else {
			return nil
		}

		// Only the failure path of a read looks at the layer (a launch argument typed by hand): it asks `argument(forKey:)`.
		return SuiteEntry(object: object, layer: .stored, version: 0)
	}

	func rememberDecoded(_ decoded: AnyObject, forKey name: String, version: UInt64) {}

	func ownObject(forKey name: String) -> Any? {
		guard let object = defaults.object(forKey: name) else {
			return nil
		}

		if argument(forKey: name) != nil {
			return object
		}

		guard let domainName = persistentDomainName else {
			// A domain that cannot be named: a value that is not the registered default must be stored.
			return isRegisteredDefault(object, forKey: name) ? nil : object
		}

		return defaults.persistentDomain(forName: domainName)?[name] != nil ? object : nil
	}

	func storedObject(forKey name: String) -> Any? {
		guard let domainName = persistentDomainName else {
			let object = defaults.object(forKey: name)
			return object.map { isRegisteredDefault($0, forKey: name) } == false && argument(forKey: name) == nil ? object : nil
		}

		return defaults.persistentDomain(forName: domainName)?[name]
	}

	/// Foundation's own: forced values, where it has them, are among them (Apple platforms).
	func configuredObject(forKey name: String) -> Any? {
		ownObject(forKey: name)
	}

	func configuredValues() -> [String: PropertyListValue] {
		let stored: [String: Any]
		if let domainName = persistentDomainName {
			stored = defaults.persistentDomain(forName: domainName) ?? [:]
		} else {
			stored = defaults.dictionaryRepresentation().filter { !isRegisteredDefault($0.value, forKey: $0.key) }
		}

		return stored.merging(defaults.volatileDomain(forName: UserDefaults.argumentDomain)) { $1 }.compactMapValues(PropertyListValue.init)
	}

	/// Raw `UserDefaults` and other processes change Foundation's copy too.
	var changesBehindTheLibrary: Bool {
		true
	}

	func storedValues() -> [String: PropertyListValue] {
		// The domain read once, not once per name: a copy of the whole domain each time.
		if let domainName = persistentDomainName {
			return (defaults.persistentDomain(forName: domainName) ?? [:]).compactMapValues(PropertyListValue.init)
		}

		return storedNames().reduce(into: [:]) { values, name in
			values[name] = storedObject(forKey: name).flatMap(PropertyListValue.init)
		}
	}

	func replaceGlobal(with values: [String: PropertyListValue]) -> [String: AppliedChange] {
		[:]
	}

	func argument(forKey name: String) -> Any? {
		defaults.volatileDomain(forName: UserDefaults.argumentDomain)[name]
	}

	func storedNames() -> [String] {
		guard let domainName = persistentDomainName else {
			return defaults.dictionaryRepresentation().filter { !isRegisteredDefault($0.value, forKey: $0.key) }.map(\.key)
		}

		return Array((defaults.persistentDomain(forName: domainName) ?? [:]).keys)
	}

	/// Foundation applies forced values by itself where it has them (Apple platforms): a write of a forced key is stored under it.
	func apply(_ object: Any?, to name: String, reporting: Bool, if accepted: (_ value: PropertyListValue?, _ isForced: Bool) -> Bool) -> AppliedChange? {
		guard accepted(object.flatMap(PropertyListValue.init), false) else {
			return nil
		}

		let old = defaults.object(forKey: name)
		if let object {
			defaults.set(object, forKey: name)
		} else {
			// `removeObject` is the only safe way to store "nothing": `set(nil, forKey:)` spins forever on Linux.
			defaults.removeObject(forKey: name)
		}

		// Not read back when the object itself is the answer: another thread may already have written the key again.
		guard let object, argument(forKey: name) == nil else {
			return AppliedChange(oldObject: old, newObject: defaults.object(forKey: name))
		}

		return AppliedChange(oldObject: old, newObject: object)
	}

	func register(_ object: Any, forKey name: String) {
		if let value = PropertyListValue(object) {
			registered.withLock { $0[name] = value }
		}

		defaults.register(defaults: [name: object])
	}

	func registeredObject(forKey name: String) -> Any? {
		registered.withLock { $0[name] }?.object
	}

	private func isRegisteredDefault(_ object: Any, forKey name: String) -> Bool {
		guard let registered = registered.withLock({ $0[name] }) else {
			return false
		}

		return registered == PropertyListValue(object)
	}

	/// The name `persistentDomain(forName:)` knows the suite by.
	private var persistentDomainName: String? {
		switch identity {
		case .named(let name):
			return name
		case .standard:
			#if canImport(Darwin)
			return Bundle.main.bundleIdentifier
			#else
			// swift-corelibs-foundation files the standard suite under CoreFoundation's name for the current application.
			return "kCFPreferencesCurrentApplication"
			#endif
		case .inMemory(let id):
			// An in-memory suite has one domain, whatever it is called.
			return id.uuidString
		case .object:
			return nil
		}
	}
}
