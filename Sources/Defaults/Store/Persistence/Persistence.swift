import Foundation

/**
Finds (and creates, on first use) the persistence of each suite the library writes.

On Apple platforms there is none: `UserDefaults` is already durable there. A
suite whose file cannot be determined (an escaping name, no `HOME`) is
reported once and kept in memory only.
*/
enum Persistence {
	private enum Entry {
		case file(SuiteFile)
		case unavailable(Defaults.PersistenceError)
		/// An in-memory suite: nothing to persist, by design.
		case none
	}

	private static let entries = Locked<[SuiteIdentity: Entry]>([:])

	/// File systems installed by tests for particular suites, before their first write.
	private static let fileSystems = Locked<[SuiteIdentity: any PreferencesFileSystem]>([:])

	static func record(_ name: String, object: Any?, suite: UserDefaults, identity: SuiteIdentity) {
		#if !canImport(Darwin)
		if case .file(let file) = entry(for: suite, identity: identity) {
			file.record(name, object: object)
		}
		#endif
	}

	/// Starts persisting and watching `suite`, so changes other processes make to it reach this one.
	static func attach(_ suite: UserDefaults) {
		#if !canImport(Darwin)
		_ = entry(for: suite, identity: SuiteIdentity.of(suite))
		#endif
	}

	/// Writes the suite's pending changes durably.
	static func flush(_ suite: UserDefaults) throws(Defaults.PersistenceError) {
		#if canImport(Darwin)
		suite.synchronize()
		#else
		switch entry(for: suite, identity: SuiteIdentity.of(suite)) {
		case .file(let file):
			try file.flush()
		case .unavailable(let error):
			throw error
		case .none:
			return
		}
		#endif
	}

	/**
	Writes every suite's pending changes before the process ends, within
	``PersistenceSettings/exitFlushLimit`` in all.

	Flushing delivers other processes' changes to observers, which may write
	again: it repeats until nothing is pending (a bounded number of rounds). A
	suite that cannot be written (its lock is held, the disk is full) is
	reported with the keys it loses, and not retried.
	*/
	static func flushBeforeExit(_ occasion: String) {
		let deadline = ContinuousClock.now + PersistenceSettings.exitFlushLimit
		var failures: [ObjectIdentifier: Defaults.PersistenceError] = [:]
		for _ in 0..<PersistenceSettings.exitFlushRounds {
			let files = fileEntries().filter { $0.hasPendingChanges && failures[ObjectIdentifier($0)] == nil }
			if files.isEmpty {
				break
			}

			for file in files {
				do {
					try file.flush(waitingUntil: deadline)
				} catch {
					failures[ObjectIdentifier(file)] = error
				}
			}
		}

		for file in fileEntries() where file.hasPendingChanges {
			let reason = failures[ObjectIdentifier(file)].map { "\($0)" }
				?? "observers kept changing it for \(PersistenceSettings.exitFlushRounds) rounds"
			let names = file.pendingNames
			DiagnosticReporter.report(
				.persistenceFailed,
				key: names.count == 1 ? names[0] : nil,
				"\(occasion): changes to suite '\(file.domainName)' were not written and are lost (keys: \(names.joined(separator: ", "))): \(reason)"
			)
		}
	}

	private static func fileEntries() -> [SuiteFile] {
		entries.withLock { entries in
			entries.values.compactMap { entry -> SuiteFile? in
				if case .file(let file) = entry {
					return file
				}

				return nil
			}
		}
	}

	static func file(for suite: UserDefaults) -> SuiteFile? {
		if case .file(let file) = entry(for: suite, identity: SuiteIdentity.of(suite)) {
			return file
		}

		return nil
	}

	static func install(_ fileSystem: any PreferencesFileSystem, for suite: UserDefaults) {
		let identity = SuiteIdentity.of(suite)
		fileSystems.withLock { $0[identity] = fileSystem }
		entries.withLock { $0[identity] = nil }
	}

	private static func entry(for suite: UserDefaults, identity: SuiteIdentity) -> Entry {
		if let entry = entries.withLock({ $0[identity] }) {
			return entry
		}

		let entry = makeEntry(for: suite, identity: identity)
		let (stored, isNew) = entries.withLock { entries in
			if let existing = entries[identity] {
				return (existing, false)
			}

			entries[identity] = entry
			return (entry, true)
		}

		if isNew {
			switch stored {
			case .file(let file):
				ExitFlush.install()
				TerminationSignalFlush.install()
				ExternalChangeWatcher.shared.watch(file)
			case .unavailable(let error):
				DiagnosticReporter.report(.persistenceFailed, key: nil, "changes to this suite stay in memory: \(error)")
			case .none:
				break
			}
		}

		return stored
	}
}

extension Persistence {
	private static func makeEntry(for suite: UserDefaults, identity: SuiteIdentity) -> Entry {
		if case .inMemory = identity {
			return .none
		}

		do {
			let url = try PreferencesLocation.fileURL(for: identity)
			let fileSystem: any PreferencesFileSystem = fileSystems.withLock { $0[identity] } ?? POSIXFileSystem()
			let domainName = try PreferencesLocation.domainName(of: identity)
			return .file(SuiteFile(url: url, domainName: domainName, suite: suite, fileSystem: fileSystem))
		} catch {
			return .unavailable(error)
		}
	}
}

/// Flushes every suite when the process exits normally (`return` from `main`, `exit()`).
enum ExitFlush {
	private static let installed = Locked(false)

	static func install() {
		let isFirst = installed.withLock { installed in
			defer { installed = true }
			return !installed
		}

		if isFirst {
			atexit {
				Persistence.flushBeforeExit("the process is exiting")
			}
		}
	}
}
