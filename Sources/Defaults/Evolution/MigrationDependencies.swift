import Foundation

/**
The stored names one run of a suite's migrations depended on: every name its
``Defaults/MigrationContext`` read or wrote, and the recorded version, which
chose the migrations to run.

Migrations are user code and run with no lock of ours held, so other writers
(other processes, other threads of this one) go on meanwhile. The run's
changes were computed from the snapshot it read first: they are committed only
if none of these names changed since, and otherwise the migrations run again
on the new snapshot. Names the migrations never touched may change freely: a
busy writer of an unrelated key cannot starve a migration.
*/
struct MigrationDependencies {
	private var names: Set<String> = [KeyName.migrationVersion]

	/// Set by an accessor of the whole suite (`names`): any change counts then.
	private var includesEverything = false

	/// Depends on every name: what a run found depends on the whole suite (that nothing is stored, the list of names).
	static var everything: MigrationDependencies {
		var dependencies = MigrationDependencies()
		dependencies.includeEverything()
		return dependencies
	}

	mutating func include(_ name: String) {
		if !includesEverything {
			names.insert(name)
		}
	}

	mutating func includeEverything() {
		includesEverything = true
		names = []
	}

	/// The names depended on whose stored value differs between `snapshot` and `current` (added, changed or removed), sorted.
	func changed(from snapshot: [String: PropertyListValue], to current: [String: PropertyListValue]) -> [String] {
		let candidates = includesEverything ? Set(snapshot.keys).union(current.keys) : names
		return candidates.filter { snapshot[$0] != current[$0] }.sorted()
	}
}
