/**
The timestamps a ``SyncLedger`` recorded and has not saved yet, in two
tables, so that a burst of synced writes costs each save only what was
recorded since the last one.

A timestamp is saved once the value it stamps is in the suite's file. A save
looks at the timestamps *recorded* since the last save; those whose values
are still pending go on *waiting*, and only a flush that stored values can
make them saveable: they are looked at again by the save after such a flush,
not at every piece of sync work. Before this split, each of a burst's 1,000
saves walked all the stamps still waiting, 500,000 looks in all.
*/
struct UnsavedTimestamps {
	/// Recorded since a save last looked.
	private var recorded: [String: Defaults.SyncTimestamp] = [:]
	/// Looked at by a save while their values were pending.
	private var waiting: [String: Defaults.SyncTimestamp] = [:]
	/// How many flushes have stored values: a save that saw it move while it looked must look at what it left waiting again.
	private(set) var flushesStored = 0

	var isEmpty: Bool {
		recorded.isEmpty && waiting.isEmpty
	}

	func contains(_ name: String) -> Bool {
		recorded[name] != nil || waiting[name] != nil
	}

	/// A newer timestamp of a name replaces the one waiting.
	mutating func record(_ timestamp: Defaults.SyncTimestamp, for name: String) {
		recorded[name] = timestamp
		waiting[name] = nil
	}

	mutating func remove(_ name: String) -> Defaults.SyncTimestamp? {
		recorded.removeValue(forKey: name) ?? waiting.removeValue(forKey: name)
	}

	/// A flush stored values: every waiting timestamp may be saveable now.
	mutating func noteFlushStoredValues() {
		flushesStored &+= 1
	}

	/// Takes the timestamps recorded since the last look, and those waiting too when `includingWaiting`.
	mutating func take(includingWaiting: Bool) -> [String: Defaults.SyncTimestamp] {
		var taken = recorded
		recorded = [:]
		if includingWaiting {
			taken.merge(waiting) { recorded, _ in recorded }
			waiting = [:]
		}

		return taken
	}

	/// Timestamps whose values were pending when looked at; a newer timestamp recorded meanwhile supersedes each.
	mutating func keepWaiting(_ timestamps: [String: Defaults.SyncTimestamp]) {
		for (name, timestamp) in timestamps where recorded[name] == nil {
			waiting[name] = timestamp
		}
	}

	/// Timestamps a save could not write, to try again at the next save; a newer timestamp recorded meanwhile supersedes each.
	mutating func putBack(_ timestamps: [String: Defaults.SyncTimestamp]) {
		for (name, timestamp) in timestamps where !contains(name) {
			recorded[name] = timestamp
		}
	}
}
