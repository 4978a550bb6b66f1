import Foundation

/**
What keeps a suite's changes, chosen when the suite is made (tests alone
replace a file's, `Suite+Testing`): it answers the questions whose answer
depends on it, so the suite asks it rather than whether it has a file.

<!-- check: internal -->
```swift
try suite.persistenceState.flush(suite.defaults)
```
*/
enum SuiteBacking: Sendable {
	/// Linux: the library writes the suite's file.
	case file(SuiteFile)
	/// Linux: the file cannot be determined (no `HOME`, an escaping name); changes stay in memory.
	case unavailable(Defaults.PersistenceError)
	/// Apple platforms: the system's preferences daemon persists every write.
	case daemon
	/// An in-memory suite: nothing to persist, by design.
	case memoryOnly

	/// The suite's file, when the backing is one.
	var file: SuiteFile? {
		if case .file(let file) = self {
			return file
		}

		return nil
	}

	/// Writes the pending changes durably (`defaults`: Foundation's copy, which the daemon persists); throws why they cannot be.
	func flush(_ defaults: UserDefaults) throws(Defaults.PersistenceError) {
		switch self {
		case .file(let file):
			try file.flush()
		case .unavailable(let error):
			throw error
		case .daemon:
			defaults.synchronize()
		case .memoryOnly:
			return
		}
	}

	/**
	Runs `body` holding the migration lock: a file's inter-process lock (see
	``SuiteFile/withMigrationLock(waitingUntil:_:)``), waited for up to
	``PersistenceSettings/migrationLockTimeout``; without a file, `turns`,
	which the suite's migrations take within the process.
	*/
	func withMigrationLock<Result>(turns: NSLock, _ body: () throws(Defaults.MigrationError) -> Result) throws(Defaults.MigrationError) -> Result {
		guard case .file(let file) = self else {
			turns.lock()
			defer { turns.unlock() }
			return try body()
		}

		let outcome: Swift.Result<Result, Defaults.MigrationError>
		do throws(Defaults.PersistenceError) {
			outcome = try file.withMigrationLock(waitingUntil: .now + PersistenceSettings.migrationLockTimeout) { () throws(Defaults.PersistenceError) in
				Swift.Result { () throws(Defaults.MigrationError) in try body() }
			}
		} catch {
			throw .persistence(error)
		}

		return try outcome.get()
	}
}
