import Foundation

extension Suite {
	/**
	Runs `body` holding the suite's migration lock: migrations of one suite
	never run in two processes or threads at once, while reads, writes and
	flushes go on.

	With a file (Linux) the lock is an inter-process lock of its own (see
	``SuiteFile/withMigrationLock(waitingUntil:_:)``), waited for up to
	``PersistenceSettings/migrationLockTimeout``; without one, migrations take
	turns within the process. A migration that migrates its own suite again
	(on the same thread) is refused with ``Defaults/MigrationError/nested``,
	not deadlocked.

	<!-- check: internal -->
	```swift
	let result = try suite.withMigrationLock {
		try MigrationRun(suite: suite, migrations: migrations).perform()
	}
	```
	*/
	func withMigrationLock<Result>(_ body: () throws(Defaults.MigrationError) -> Result) throws(Defaults.MigrationError) -> Result {
		let marker = "Defaults.migrating.\(UInt(bitPattern: ObjectIdentifier(self).hashValue))"
		let threadValues = Thread.current.threadDictionary
		guard threadValues[marker] == nil else {
			throw .nested
		}

		threadValues[marker] = true
		defer { threadValues[marker] = nil }
		return try backing.withMigrationLock(body)
	}
}
