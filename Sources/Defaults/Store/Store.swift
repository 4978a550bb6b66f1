import Foundation

/**
The single gateway through which the library touches a `UserDefaults` suite.

Every read, write, removal and registration the library performs goes through
here, and nothing else in the library calls `UserDefaults` mutators. That is
what lets later layers (observation, durable persistence, caching) see every
change by hooking one place. Values arriving here are already property-list
objects: the serialization layer made sure Foundation can store them.
*/
enum Store {
	static func object(forKey name: String, in suite: UserDefaults) -> Any? {
		suite.object(forKey: name)
	}

	/**
	The suite's own value for `name`, leaving registered defaults out: one
	stored in its persistent domain, or given as a launch argument; `nil` when
	there is none.
	*/
	static func storedObject(forKey name: String, in suite: UserDefaults) -> Any? {
		guard let object = suite.object(forKey: name) else {
			return nil
		}

		if suite.volatileDomain(forName: UserDefaults.argumentDomain)[name] != nil {
			return object
		}

		guard let domainName = persistentDomainName(of: suite) else {
			// A suite whose domain cannot be named: a value that is not the registered default must be stored.
			return Registrations.isRegisteredDefault(object, forKey: name, in: suite) ? nil : object
		}

		return suite.persistentDomain(forName: domainName)?[name] != nil ? object : nil
	}

	/// Whether the suite has a value of its own for `name` (see ``storedObject(forKey:in:)``).
	static func hasValue(forKey name: String, in suite: UserDefaults) -> Bool {
		storedObject(forKey: name, in: suite) != nil
	}

	/// The name `persistentDomain(forName:)` knows the suite by.
	static func persistentDomainName(of suite: UserDefaults) -> String? {
		switch SuiteIdentity.of(suite) {
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

	static func set(_ object: Any, forKey name: String, in suite: UserDefaults) {
		change(name, in: suite, to: object) {
			suite.set(object, forKey: name)
		}
	}

	/// `removeObject` is the only safe way to store "nothing": `set(nil, forKey:)` spins forever on Linux.
	static func removeObject(forKey name: String, in suite: UserDefaults) {
		change(name, in: suite, to: nil) {
			suite.removeObject(forKey: name)
		}
	}

	/// Removes every value stored in `suite`, telling each key's observers; registered defaults stay.
	static func removeAll(in suite: UserDefaults) {
		for name in suite.dictionaryRepresentation().keys {
			removeObject(forKey: name, in: suite)
		}
	}

	/**
	Applies a change another process made to the suite's file: observed like a
	local write, but not written back. The old value is the file's previous one:
	Foundation may already have reloaded the file by itself.
	*/
	static func applyExternalChange(_ name: String, from oldObject: Any?, to object: Any?, in suite: UserDefaults) {
		change(name, in: suite, to: object, knownOldObject: .some(oldObject), persist: false) {
			if let object {
				suite.set(object, forKey: name)
			} else {
				suite.removeObject(forKey: name)
			}
		}
	}

	/**
	Applies a change that came from the sync remote: persisted and observed like
	a local write, but not reported back to the synchroniser as a local change.
	*/
	static func applySyncedChange(_ name: String, to object: Any?, in suite: UserDefaults) {
		change(name, in: suite, to: object, isLocal: false) {
			if let object {
				suite.set(object, forKey: name)
			} else {
				suite.removeObject(forKey: name)
			}
		}
	}

	/// Applies one mutation, records it for persistence and sync, and tells the key's observers: before it (if they asked) and after it.
	private static func change(
		_ name: String,
		in suite: UserDefaults,
		to newObject: Any?,
		knownOldObject: Any?? = nil,
		persist: Bool = true,
		isLocal: Bool = true,
		apply: () -> Void
	) {
		let identity = SuiteIdentity.of(suite)
		let observers = ChangeEngine.observers(of: ObservedKey(suite: identity, name: name))
		guard !observers.isEmpty else {
			apply()
			record(name, newObject, suite: suite, identity: identity, persist: persist, isLocal: isLocal)
			return
		}

		let oldObject = knownOldObject ?? suite.object(forKey: name)
		let prior = RawChange(oldObject: oldObject, newObject: newObject, isPrior: true)
		for observer in observers where observer.wantsPrior {
			observer.deliver(prior)
		}

		apply()
		record(name, newObject, suite: suite, identity: identity, persist: persist, isLocal: isLocal)

		let change = RawChange(oldObject: oldObject, newObject: valueAfterChange(name, to: newObject, in: suite), isPrior: false)
		for observer in observers {
			observer.deliver(change)
		}
	}

	/**
	What a read returns once `name` was changed to `newObject`: the object
	itself, unless a launch argument overrides it or it was a removal (a read
	then returns the registered default, if any), which only a read can tell.

	Not read back otherwise: another thread may already have written the key
	again, and its value would be reported as this change's.
	*/
	private static func valueAfterChange(_ name: String, to newObject: Any?, in suite: UserDefaults) -> Any? {
		guard let newObject, suite.volatileDomain(forName: UserDefaults.argumentDomain)[name] == nil else {
			return suite.object(forKey: name)
		}

		return newObject
	}

	private static func record(_ name: String, _ newObject: Any?, suite: UserDefaults, identity: SuiteIdentity, persist: Bool, isLocal: Bool) {
		if persist {
			Persistence.record(name, object: newObject, suite: suite, identity: identity)
		}

		// A change another process made is synced by that process.
		if persist, isLocal {
			Synchronizer.recordLocalChange(name, to: newObject, in: identity)
		}
	}

	static func register(_ object: Any, forKey name: String, in suite: UserDefaults) {
		Registrations.record(object, forKey: name, in: suite)
		suite.register(defaults: [name: object])
	}
}

/**
Remembers which suite registered which default under each name.

Foundation on Linux keeps registered defaults process-wide, so two suites that
register different defaults under one name see each other's. That cannot be
undone from here; it is reported so the conflict does not go unnoticed.
*/
enum Registrations {
	/// For each name, the default each suite registered under it.
	private static let registrations = Locked<[String: [ObjectIdentifier: PropertyListValue?]]>([:])

	/// Whether `object` is what this library registered as the default of `name` in `suite`.
	static func isRegisteredDefault(_ object: Any?, forKey name: String, in suite: UserDefaults) -> Bool {
		let registered = registrations.withLock { $0[name]?[ObjectIdentifier(suite)] }
		guard let registered, let object else {
			return false
		}

		return registered == PropertyListValue(object)
	}

	static func record(_ object: Any, forKey name: String, in suite: UserDefaults) {
		let value = PropertyListValue(object)
		let suiteID = ObjectIdentifier(suite)
		let conflicts = registrations.withLock { registrations in
			let others = registrations[name, default: [:]].contains { $0.key != suiteID && $0.value != value }
			registrations[name, default: [:]][suiteID] = value
			return others
		}

		if conflicts {
			DiagnosticReporter.report(
				.conflictingRegistration,
				key: name,
				"another suite registered a different default under this name; on Linux registered defaults are shared by every suite, so unset reads in either suite may see the other's default"
			)
		}
	}
}
