import Foundation

/**
Finds the suite object of a `UserDefaults`: the one lookup by suite identity
the library keeps. Keys do it once, when they are created.
*/
extension Suite {
	struct Registry {
		/// Suite objects by stored domain.
		var byIdentity: [SuiteIdentity: Suite] = [:]
		/// The suite object of each `UserDefaults` seen, so its identity is worked out once.
		var byObject: [ObjectIdentifier: Sighting] = [:]
		/// File systems installed by tests for suites not created yet.
		var fileSystems: [SuiteIdentity: any PreferencesFileSystem] = [:]
		/// Suites whose values tests asked `UserDefaults` to keep, as on Apple platforms.
		var foundationBacked: Set<SuiteIdentity> = []
		/// `byObject` is swept of released objects when it grows past this; doubling keeps the sweeps' cost constant per sighting.
		var sweepThreshold = 1024
	}

	struct Sighting {
		weak var defaults: UserDefaults?
		let suite: Suite
	}

	static let registry = Locked(Registry())

	/**
	The suite object the API edge reads and writes for `defaults`: its
	process-wide one, or, inside an isolated test, that test's copy.

	<!-- check: internal -->
	```swift
	let suite = Suite.of(UserDefaults(suiteName: "com.example.app")!)
	```
	*/
	package static func of(_ defaults: UserDefaults) -> Suite {
		// Inside an isolated test, the process-wide suite is not even made: nothing of it is read.
		if SuiteIsolation.mayBeActive, let copy = SuiteIsolation.copy(standingFor: defaults) {
			return copy
		}

		return processWide(defaults)
	}

	/**
	The process-wide suite object of `defaults`, created (and started: flushed
	at exit, watched for other processes' changes) on first use. Keys bind it
	when they are created, whether or not a test is isolated then: a key
	declared as a global outlives the test that first touched it.
	*/
	static func processWide(_ defaults: UserDefaults) -> Suite {
		let objectID = ObjectIdentifier(defaults)
		if let sighting = registry.withLock({ $0.byObject[objectID] }), sighting.defaults === defaults {
			return sighting.suite
		}

		let identity = SuiteIdentity.resolve(defaults)
		let existing = registry.withLock { registry -> Suite? in
			guard let suite = registry.byIdentity[identity] else {
				return nil
			}

			registry.remember(suite, for: defaults)
			return suite
		}
		if let existing {
			return existing
		}

		let (fileSystem, isFoundationBacked) = registry.withLock { ($0.fileSystems[identity], $0.foundationBacked.contains(identity)) }
		let made = make(identity: identity, defaults: defaults, fileSystem: fileSystem, foundationBacked: isFoundationBacked)
		let (suite, isNew) = registry.withLock { registry -> (Suite, Bool) in
			if let existing = registry.byIdentity[identity] {
				registry.remember(existing, for: defaults)
				return (existing, false)
			}

			// An identity made of an object's address may be reused by another object: only the object itself finds it.
			if case .object = identity {} else {
				registry.byIdentity[identity] = made
			}

			registry.remember(made, for: defaults)
			return (made, true)
		}

		if isNew {
			suite.start()
		}

		return suite
	}

	/// Every suite object of the process that has a file.
	static var files: [SuiteFile] {
		registry.withLock { Array($0.byIdentity.values) }.compactMap(\.file)
	}

	private static func make(identity: SuiteIdentity, defaults: UserDefaults, fileSystem: (any PreferencesFileSystem)?, foundationBacked: Bool) -> Suite {
		if case .inMemory = identity {
			return Suite(identity: identity, defaults: defaults, values: FoundationSuiteValues(defaults, identity: identity), unfiled: .memoryOnly)
		}

		#if canImport(Darwin)
		return Suite(identity: identity, defaults: defaults, values: FoundationSuiteValues(defaults, identity: identity), unfiled: .daemon)
		#else
		if foundationBacked {
			return Suite(identity: identity, defaults: defaults, values: FoundationSuiteValues(defaults, identity: identity), unfiled: .daemon)
		}

		// Foundation parsed the launch arguments (`-name value`) into this domain: they are the same for every suite.
		let arguments = defaults.volatileDomain(forName: UserDefaults.argumentDomain)
		let global = GlobalDomain.shared.values
		do {
			// The folder first: without one, that is the reason reported, whatever the suite's name.
			let folder = try PreferencesLocation.folder()
			let domainName = try identity.domainName()
			return Suite(
				identity: identity,
				defaults: defaults,
				fileAt: folder.appendingPathComponent("\(domainName).plist", isDirectory: false),
				domainName: domainName,
				fileSystem: fileSystem ?? POSIXFileSystem(),
				arguments: arguments,
				global: global
			)
		} catch {
			let values = OwnedSuiteValues(stored: [:], arguments: arguments, global: global)
			return Suite(identity: identity, defaults: defaults, values: values, unfiled: .unavailable(error))
		}
		#endif
	}

	/// Starts what a new suite needs: flushing at exit and on termination signals, watching its file and the global domain.
	private func start() {
		// Only suites the registry keeps (an object's own suite may go away with it) read the global domain's changes.
		if case .object = identity {} else {
			for notification in GlobalDomain.shared.addReader(self) {
				notification.deliver()
			}
		}

		backing.start()
	}
}

extension Suite.Registry {
	mutating func remember(_ suite: Suite, for defaults: UserDefaults) {
		byObject[ObjectIdentifier(defaults)] = Suite.Sighting(defaults: defaults, suite: suite)
		if byObject.count > sweepThreshold {
			byObject = byObject.filter { $0.value.defaults != nil }
			sweepThreshold = max(1024, byObject.count * 2)
		}
	}
}
