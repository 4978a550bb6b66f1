import Foundation

/// Flushes every suite when the process exits normally (`return` from `main`, `exit()`).
enum ExitFlush {
	static func install() {
		let isFirst = DefaultsSystem.isExitFlushInstalled.withLock { installed in
			defer { installed = true }
			return !installed
		}

		if isFirst {
			atexit {
				ExitFlush.flushEverySuite("the process is exiting")
				TerminationSignalFlush.letAnEndingSignalEndTheProcess()
			}
		}
	}

	/**
	Writes every suite's pending changes before the process ends, within
	``PersistenceSettings/exitFlushLimit`` in all.

	Flushing delivers other processes' changes to observers, which may write
	again: it repeats until nothing is pending (a bounded number of rounds). A
	suite that cannot be written (its lock is held, the disk is full) is
	reported with the keys it loses, and not retried.
	*/
	static func flushEverySuite(_ occasion: String) {
		let deadline = ContinuousClock.now + PersistenceSettings.exitFlushLimit
		var failures: [ObjectIdentifier: Defaults.PersistenceError] = [:]
		for _ in 0..<PersistenceSettings.exitFlushRounds {
			let files = Suite.files.filter { $0.hasPendingChanges && failures[ObjectIdentifier($0)] == nil }
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

		for file in Suite.files where file.hasPendingChanges {
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
}
