import Foundation

/**
The timestamp of every synced key's last explicit change on this device, in one suite.

A key with no timestamp was never written here: its value is only a default,
and it never overwrites anything remote. The ledger of a file-backed suite is
kept in `<suite>.defaults-sync.plist` beside the suite's file (locked, atomic,
like the suite), so it survives restarts; an in-memory suite keeps it in memory.
Recording is a memory write; the synchroniser saves the changes in one file
write after each piece of sync work, off the writer's thread, and after each
write of the suite's file (the flush at exit too). A timestamp is saved only once the value it stamps
is in the suite's file: a process killed in between leaves the older stamp
over the older value, which the remote's later entry then replaces.
*/
final class SyncLedger: Sendable {
	private let file: PreferencesFile?
	private let timestamps: Locked<[String: Defaults.SyncTimestamp]>
	private let unsaved = Locked(UnsavedTimestamps())
	/// The timestamps this process last read from the file or saved to it: what a forgotten unsaved timestamp gives way to.
	private let saved: Locked<[String: Defaults.SyncTimestamp]>
	/// Whether the last save failed: a failure is reported when saving starts to fail, not at every retry (a full disk retries at every piece of sync work).
	private let isFailing = Locked(false)
	/**
	Held by a save from taking the stamps to putting back those it keeps, so
	a save finds an earlier one's stamps written or back in the tables, never
	in flight: the flush at exit saves what another thread's flush was still
	saving. Recursive for the tests that play another thread's steps inside a
	save; threads take it in turn.
	*/
	private let saving = NSRecursiveLock()

	/// The ledger of `suite`, read from its file; the suite holds it (``Suite/syncLedger``).
	init(for suite: Suite) {
		if case .inMemory = suite.identity {
			file = nil
		} else {
			file = (try? suite.identity.domainName()).flatMap { try? PreferencesFile(domain: $0 + SideFileNames.ledgerSuffix) }
		}

		let stored = ((try? file?.read()) ?? nil)?.compactMapValues(Defaults.SyncTimestamp.init(propertyListValue:)) ?? [:]
		timestamps = Locked(stored)
		saved = Locked(stored)
	}

	subscript(name: String) -> Defaults.SyncTimestamp? {
		timestamps.withLock { $0[name] }
	}

	/// The latest timestamp recorded that a real clock could give at `now` (Unix milliseconds).
	func latest(plausibleAt now: Int64) -> Defaults.SyncTimestamp? {
		timestamps.withLock { $0.values.filter { $0.implausibility(at: now) == nil }.max() }
	}

	/// Records a timestamp; a later save makes it durable once its value is in the suite's file.
	func record(_ timestamp: Defaults.SyncTimestamp, for name: String) {
		timestamps.withLock { $0[name] = timestamp }
		if file != nil {
			unsaved.withLock { $0.record(timestamp, for: name) }
		}
	}

	/**
	Forgets the timestamps of `names` recorded since the last save, whose
	values never reached the suite's file: each name's saved timestamp (or
	none) is its own again. Returns the timestamps forgotten.
	*/
	func forgetUnsaved(_ names: [String]) -> [String: Defaults.SyncTimestamp] {
		// Not while a save looks: one that took a name's stamp would put it back, or write it.
		saving.withLock {
			let forgotten = unsaved.withLock { unsaved in
				var forgotten: [String: Defaults.SyncTimestamp] = [:]
				for name in names {
					forgotten[name] = unsaved.remove(name)
				}

				return forgotten
			}

			// What this process knows is saved, not read again: a ledger file that does not read must not make a name look
			// never written here. Every name given, found in the tables or not: none has a newer write pending.
			let saved = saved.withLock { $0 }
			timestamps.withLock { timestamps in
				for name in names where timestamps[name] != saved[name] {
					timestamps[name] = saved[name]
				}
			}

			return forgotten
		}
	}

	/// Whether any of `names` has a timestamp not saved yet.
	func hasUnsaved(among names: [String]) -> Bool {
		file != nil && unsaved.withLock { unsaved in !unsaved.isEmpty && names.contains { unsaved.contains($0) } }
	}

	/**
	Writes the timestamps recorded since the last save, in one file update,
	but those of names whose values the suite has not written to its file yet
	(`isPending`): they wait for the save after the flush that stores them
	(``flushEnded(keepingBack:)``). Called after each piece of sync work,
	so it costs what was recorded since, not what waits.
	*/
	func saveRecorded(keepingBack isPending: (String) -> Bool) {
		save(includingWaiting: false, keepingBack: isPending)
	}

	/**
	A flush of the suite's file ended, whatever it stored: writes every
	timestamp not saved yet whose value is no longer pending, those that
	waited for a flush included.
	*/
	func flushEnded(keepingBack isPending: (String) -> Bool) {
		unsaved.withLock { $0.noteFlushStoredValues() }
		// Every flush saves what waits, not only the stamps of the names it stored, and looks even when the tables seem
		// empty: another save may hold stamps in flight (it is waited for), and a flush finding its changes written already
		// by another thread's flush is the last chance of a process that exits.
		save(includingWaiting: true, keepingBack: isPending)
	}

	private func save(includingWaiting: Bool, keepingBack isPending: (String) -> Bool) {
		saving.withLock {
			var includingWaiting = includingWaiting
			// A flush that stored values while the stamps were looked at may have found none of them to save: look again.
			while saveOnce(includingWaiting: includingWaiting, keepingBack: isPending) {
				includingWaiting = true
			}
		}
	}

	/// One look at the stamps; returns whether a flush stored values meanwhile, so those kept waiting need another.
	private func saveOnce(includingWaiting: Bool, keepingBack isPending: (String) -> Bool) -> Bool {
		let (taken, flushesStored) = unsaved.withLock { unsaved in
			(unsaved.take(includingWaiting: includingWaiting), unsaved.flushesStored)
		}

		guard let file, !taken.isEmpty else {
			return false
		}

		// Asked after the stamps were taken: a value written meanwhile is on disk, so its stamp may go.
		var changes = taken
		var waiting: [String: Defaults.SyncTimestamp] = [:]
		for (name, timestamp) in taken where isPending(name) {
			waiting[name] = timestamp
			changes[name] = nil
		}

		// Only a name's current stamp waits: one written again meanwhile has a newer one, and a refused one has none.
		let current = timestamps.withLock { timestamps in waiting.filter { timestamps[$0.key] == $0.value } }
		let lookAgain = !current.isEmpty && unsaved.withLock { unsaved in
			unsaved.keepWaiting(current)
			return unsaved.flushesStored != flushesStored
		}
		if !changes.isEmpty {
			write(changes, to: file)
		}

		return lookAgain
	}

	private func write(_ changes: [String: Defaults.SyncTimestamp], to file: PreferencesFile) {
		do {
			let written = try file.update { contents in
				// Decided under the file's lock: a stamp a newer one replaced (or a refusal forgot) since it was taken is
				// never written, so it cannot replace the newer one another save wrote first.
				let written = timestamps.withLock { timestamps in changes.filter { timestamps[$0.key] == $0.value } }
				var values = contents ?? [:]
				for (name, timestamp) in written {
					values[name] = timestamp.propertyListValue
				}

				contents = values
				return written
			}
			saved.withLock { $0.merge(written) { _, new in new } }
			isFailing.withLock { $0 = false }
		} catch {
			unsaved.withLock { $0.putBack(changes) }
			let isNew = isFailing.withLock { failing in
				defer { failing = true }
				return !failing
			}
			if isNew {
				DiagnosticReporter.report(.syncFailed, key: nil, "sync timestamps could not be saved: \(error); retrying after each sync, and saying nothing more until a save works")
			}
		}
	}
}
