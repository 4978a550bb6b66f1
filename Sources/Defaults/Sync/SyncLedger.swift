import Foundation

/**
The timestamp of every synced key's last explicit change on this device, in one suite.

A key with no timestamp was never written here: its value is only a default,
and it never overwrites anything remote. The ledger of a file-backed suite is
kept in `<suite>.defaults-sync.plist` beside the suite's file (locked, atomic,
like the suite), so it survives restarts; an in-memory suite keeps it in memory.
Recording is a memory write; the synchroniser saves the changes in one file
write after each piece of sync work, off the writer's thread.
*/
final class SyncLedger: Sendable {
	private let file: PreferencesFile?
	private let timestamps: Locked<[String: Defaults.SyncTimestamp]>
	private let unsaved = Locked<[String: Defaults.SyncTimestamp]>([:])

	/// The ledger of `suite`, read from its file; the suite holds it (``Suite/syncLedger``).
	init(for suite: Suite) {
		if case .inMemory = suite.identity {
			file = nil
		} else {
			file = (try? suite.identity.domainName()).flatMap { try? PreferencesFile(domain: $0 + SideFileNames.ledgerSuffix) }
		}

		let stored = (try? file?.read()) ?? nil
		timestamps = Locked((stored ?? [:]).compactMapValues(Defaults.SyncTimestamp.init(propertyListValue:)))
	}

	subscript(name: String) -> Defaults.SyncTimestamp? {
		timestamps.withLock { $0[name] }
	}

	/// The latest timestamp recorded that a real clock could give at `now` (Unix milliseconds).
	func latest(plausibleAt now: Int64) -> Defaults.SyncTimestamp? {
		timestamps.withLock { $0.values.filter { $0.implausibility(at: now) == nil }.max() }
	}

	/// Records a timestamp; ``save()`` makes it durable.
	func record(_ timestamp: Defaults.SyncTimestamp, for name: String) {
		timestamps.withLock { $0[name] = timestamp }
		if file != nil {
			unsaved.withLock { $0[name] = timestamp }
		}
	}

	/// Writes the timestamps recorded since the last save, in one file update.
	func save() {
		let changes = unsaved.withLock { unsaved in
			defer { unsaved = [:] }
			return unsaved
		}

		guard let file, !changes.isEmpty else {
			return
		}

		do {
			try file.update { contents in
				var values = contents ?? [:]
				for (name, timestamp) in changes {
					values[name] = timestamp.propertyListValue
				}

				contents = values
			}
		} catch {
			unsaved.withLock { $0.merge(changes) { newer, _ in newer } }
			DiagnosticReporter.report(.syncFailed, key: nil, "sync timestamps could not be saved: \(error); retrying after the next sync")
		}
	}
}
