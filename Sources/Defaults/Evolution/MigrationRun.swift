import Foundation

/**
One call of `Defaults.migrate` on one suite, once it holds the suite's
migration lock: reads the stored values and the recorded version, runs the
migrations due on a copy, and commits their changes with the new version in
one step.

The migrations run with no other lock of ours held (they are user code), so
other writers go on meanwhile. The commit checks, under the inter-process
lock, that nothing the migrations depended on changed since their snapshot
(see ``MigrationDependencies``); if something did, nothing is written and the
migrations run again on the new snapshot, up to ``maximumAttempts`` times.
*/
struct MigrationRun {
	let suite: Suite
	let migrations: [Defaults.Migration]

	/// How many times the migrations run before a writer that keeps changing what they use makes `migrate` give up.
	static let maximumAttempts = 5

	/// What one attempt found to do.
	private enum Attempt {
		/// Nothing to write.
		case finished(Defaults.MigrationResult)
		/// `changes`, to be written only if nothing in `dependencies` changed since `snapshot`.
		case commit(
			changes: [String: PropertyListValue?],
			snapshot: [String: PropertyListValue],
			dependencies: MigrationDependencies,
			result: Defaults.MigrationResult
		)
	}

	/// Runs the migrations due; call it holding the suite's migration lock (``Suite/withMigrationLock(_:)``).
	func perform() throws(Defaults.MigrationError) -> Defaults.MigrationResult {
		var keptChanging: Set<String> = []
		for number in 1...Self.maximumAttempts {
			switch try attempt(reportingOnce: number == 1) {
			case .finished(let result):
				return result
			case .commit(let changes, let snapshot, let dependencies, let result):
				let changed = try commit(changes, unlessChangedSince: snapshot, dependencies)
				guard !changed.isEmpty else {
					return result
				}

				keptChanging.formUnion(changed)
			}
		}

		let names = keptChanging.sorted()
		DiagnosticReporter.report(
			.migrationFailed,
			key: nil,
			"the migrations of suite '\(suite.displayName)' ran \(Self.maximumAttempts) times, and each time another writer changed what they had read or written before they could be saved (\(names.joined(separator: ", "))); nothing of them was written, the suite was left as it was, and the migrations run again next time"
		)
		throw .concurrentChanges(keys: names)
	}

	/// Reads the suite and runs the migrations due on a copy of it; `reportingOnce`: the first attempt reports what every attempt would find.
	private func attempt(reportingOnce: Bool) throws(Defaults.MigrationError) -> Attempt {
		let latest = migrations.last?.version ?? 0
		let stored = try storedValues()
		let recorded = try recordedVersion(in: stored, reportingRealNumber: reportingOnce)

		if recorded == nil, !stored.keys.contains(where: { !KeyName.isReserved($0) }) {
			// Nothing stored: there is nothing to migrate, and everything written from now on is in the latest form.
			return .commit(
				changes: [KeyName.migrationVersion: .integer(latest)],
				snapshot: stored,
				dependencies: .everything,
				result: Defaults.MigrationResult(previousVersion: nil, version: latest, applied: [])
			)
		}

		let from = recorded ?? 0
		guard from <= latest else {
			DiagnosticReporter.report(
				.newerSettingsVersion,
				key: nil,
				"suite '\(suite.displayName)' was migrated to version \(from) by a newer version of the app; this one knows versions up to \(latest), so it runs no migration and leaves the suite as it is"
			)
			return .finished(Defaults.MigrationResult(previousVersion: recorded, version: from, applied: []))
		}

		let due = migrations.filter { $0.version > from }
		guard !due.isEmpty else {
			return .finished(Defaults.MigrationResult(previousVersion: recorded, version: from, applied: []))
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
		return .commit(
			changes: changes,
			snapshot: stored,
			dependencies: context.dependencies,
			result: Defaults.MigrationResult(previousVersion: recorded, version: latest, applied: due.map(\.version))
		)
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

	/**
	Writes `changes` in one step, unless another writer changed a name in
	`dependencies` since `snapshot`: then nothing is written, and the names
	that changed are returned. A failure is reported, and thrown as the
	migration's.
	*/
	private func commit(
		_ changes: [String: PropertyListValue?],
		unlessChangedSince snapshot: [String: PropertyListValue],
		_ dependencies: MigrationDependencies
	) throws(Defaults.MigrationError) -> [String] {
		var changed: [String] = []
		do {
			try suite.commit { current in
				// Under the inter-process lock: nobody can change `current` between this check and the write.
				changed = dependencies.changed(from: snapshot, to: current)
				return changed.isEmpty ? changes : [:]
			}
		} catch {
			DiagnosticReporter.report(
				.migrationFailed,
				key: nil,
				"the migrated settings of suite '\(suite.displayName)' could not be written: \(error); the suite was left as it was, and the migrations run again next time"
			)
			throw .persistence(error)
		}

		return changed
	}
}
