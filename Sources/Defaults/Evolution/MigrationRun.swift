import Foundation

/**
One call of `Defaults.migrate` on one suite, once it holds the suite's
migration lock: reads the stored values and the recorded version, runs the
migrations due on a copy, and commits their changes with the new version in
one step.
*/
struct MigrationRun {
	let suite: Suite
	let migrations: [Defaults.Migration]

	/// Suites without a file have no inter-process lock to take turns with: their migrations take turns within the process.
	private static let unfiledSuites = NSLock()

	func perform() throws(Defaults.MigrationError) -> Defaults.MigrationResult {
		guard suite.file == nil else {
			return try performHoldingLock()
		}

		Self.unfiledSuites.lock()
		defer { Self.unfiledSuites.unlock() }
		return try performHoldingLock()
	}

	private func performHoldingLock() throws(Defaults.MigrationError) -> Defaults.MigrationResult {
		let latest = migrations.last?.version ?? 0
		let stored = try storedValues()
		let recorded = stored[KeyName.migrationVersion].flatMap { $0.object as? Int }

		if recorded == nil, !stored.keys.contains(where: { !KeyName.isReserved($0) }) {
			// Nothing stored: there is nothing to migrate, and everything written from now on is in the latest form.
			try commit([KeyName.migrationVersion: .integer(latest)])
			return Defaults.MigrationResult(previousVersion: nil, version: latest, applied: [])
		}

		let from = recorded ?? 0
		guard from <= latest else {
			DiagnosticReporter.report(
				.newerSettingsVersion,
				key: nil,
				"suite '\(suite.displayName)' was migrated to version \(from) by a newer version of the app; this one knows versions up to \(latest), so it runs no migration and leaves the suite as it is"
			)
			return Defaults.MigrationResult(previousVersion: recorded, version: from, applied: [])
		}

		let due = migrations.filter { $0.version > from }
		guard !due.isEmpty else {
			return Defaults.MigrationResult(previousVersion: recorded, version: from, applied: [])
		}

		let context = Defaults.MigrationContext(values: stored)
		for migration in due {
			do {
				try migration.migrate(context)
				if let failure = context.firstFailure {
					throw failure
				}
			} catch {
				DiagnosticReporter.report(
					.migrationFailed,
					key: nil,
					"the migration of suite '\(suite.displayName)' to version \(migration.version) threw \(error); the suite was left at version \(from), as it was, and the migrations run again next time"
				)
				throw .failed(version: migration.version, error: error)
			}
		}

		var changes = context.changes(since: stored)
		changes[KeyName.migrationVersion] = .some(.integer(latest))
		try commit(changes)
		return Defaults.MigrationResult(previousVersion: recorded, version: latest, applied: due.map(\.version))
	}

	/// The suite's stored values as they are now: its file, read under the inter-process lock, with this process's pending changes.
	private func storedValues() throws(Defaults.MigrationError) -> [String: PropertyListValue] {
		var stored: [String: PropertyListValue] = [:]
		do {
			try suite.commit { current in
				stored = current
				return [:]
			}
		} catch {
			throw .persistence(error)
		}

		return stored
	}

	/// Writes `changes` in one step; a failure is reported, and thrown as the migration's.
	private func commit(_ changes: [String: PropertyListValue?]) throws(Defaults.MigrationError) {
		do {
			try suite.commit { _ in changes }
		} catch {
			DiagnosticReporter.report(
				.migrationFailed,
				key: nil,
				"the migrated settings of suite '\(suite.displayName)' could not be written: \(error); the suite was left as it was, and the migrations run again next time"
			)
			throw .persistence(error)
		}
	}

	/// Runs `body` unless this thread is already migrating `suite`: a migration that migrates its own suite again is refused, not deadlocked.
	static func inProgress<Result>(for suite: Suite, _ body: () throws(Defaults.MigrationError) -> Result) throws(Defaults.MigrationError) -> Result {
		let marker = "Defaults.migrating.\(UInt(bitPattern: ObjectIdentifier(suite).hashValue))"
		let threadValues = Thread.current.threadDictionary
		guard threadValues[marker] == nil else {
			throw .nested
		}

		threadValues[marker] = true
		defer { threadValues[marker] = nil }
		return try body()
	}
}
