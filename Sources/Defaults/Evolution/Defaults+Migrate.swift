import Foundation

extension Defaults {
	/**
	Brings `suite`'s stored settings up to the last of `migrations`, running
	each one the suite has not run yet, in order. Call it once at launch,
	before the app reads its settings.

	```swift
	// First thing at launch:
	try Defaults.migrate(settingsMigrations)
	// … the app reads its settings in their current form from here on.
	```

	The rules:
	- The suite records the version it reached, in its file, under
	  `@Defaults.migrationVersion` (a name no key can have).
	- A suite with nothing stored yet runs none: it is recorded at the last version.
	- All or nothing: the migrations run on a copy of the stored values, and
	  their changes and the new version are written in one atomic step. A
	  migration that throws, or a process killed meanwhile, leaves the suite
	  exactly as it was; the error is thrown and reported as a
	  ``Diagnostic/Kind/migrationFailed`` diagnostic, and the next call tries again.
	- Processes and threads that migrate one suite at the same time take
	  turns (Linux: an inter-process lock of the suite's own): each migration
	  runs once, and the others find its result. Reads and writes of the
	  suite are not held up meanwhile.
	- A write made meanwhile is never lost. If another process, or another
	  thread of this one, changes a value the migrations read or wrote while
	  they run, nothing is written and they run again on the suite as it is
	  now (so a migration must act only through its context: it may run more
	  than once). Values they never touched may change freely. After five
	  attempts it gives up with ``MigrationError/concurrentChanges(keys:)``.
	- The recorded version must be an integer. A real with a whole value
	  (`3.0`) is read as that version, with a ``Diagnostic/Kind/otherStoredForm``
	  diagnostic; anything else (a string, a fraction) is refused with
	  ``MigrationError/invalidRecordedVersion(_:)`` rather than taken for no
	  version, which would run every migration again.
	- A suite recorded at a version newer than the last migration (written by
	  a newer version of the app) is left untouched, and its version never
	  moves back; it is reported as a ``Diagnostic/Kind/newerSettingsVersion`` diagnostic.
	- Observers hear each resulting change once it is written.

	- Parameters:
	  - migrations: The migrations, oldest first; versions must be positive and strictly increasing.
	  - suite: The suite to migrate.
	- Returns: What was done.
	- Throws: ``MigrationError``; the suite is then left as it was.
	*/
	@discardableResult
	public static func migrate(_ migrations: [Migration], suite: UserDefaults = .standard) throws(MigrationError) -> MigrationResult {
		let versions = migrations.map(\.version)
		guard versions.allSatisfy({ $0 > 0 }), zip(versions, versions.dropFirst()).allSatisfy({ $0 < $1 }) else {
			throw .invalidVersions(versions)
		}

		let suiteObject = Suite.of(suite)
		return try suiteObject.withMigrationLock { () throws(MigrationError) in
			try MigrationRun(suite: suiteObject, migrations: migrations).perform()
		}
	}
}
