import Foundation

/**
The timestamp of every synced key's last explicit change on this device, in one suite.

A key with no timestamp was never written here: its value is only a default,
and it never overwrites anything remote. The ledger of a file-backed suite is
kept in `<suite>.defaults-sync.plist` beside the suite's file (locked, atomic,
like the suite), so it survives restarts; an in-memory suite keeps it in memory.
Recording is a memory write; the synchroniser saves the changes in one file
write after each piece of sync work, off the writer's thread, once the values
they stamp are in the suite's file.

Builds before that rule saved timestamps whenever sync work ended, so a
process killed before its suite's flush could leave a stamp over an older
value. The file names the keys whose stamps were saved under the rule
(``follows(_:)``); for the others, a stored value that differs from the
remote entry of the same stamp is not trusted to be the later one.
*/
final class SyncLedger: Sendable {
	private let file: PreferencesFile?
	private let timestamps: Locked<[String: Defaults.SyncTimestamp]>
	private let unsaved = Locked<[String: Defaults.SyncTimestamp]>([:])
	/// The keys whose timestamps follow their stored values: recorded by this process, or saved after the values were stored.
	private let following: Locked<Set<String>>
	/// Where the file lists them: no key's name (reserved names start with a NUL), and no timestamp, which earlier builds skip.
	static let followingName = "\u{0}timestamps saved after their values"

	/// The ledger of `suite`, read from its file; the suite holds it (``Suite/syncLedger``).
	init(for suite: Suite) {
		if case .inMemory = suite.identity {
			file = nil
		} else {
			file = (try? suite.identity.domainName()).flatMap { try? PreferencesFile(domain: $0 + SideFileNames.ledgerSuffix) }
		}

		let stored = (try? file?.read()) ?? nil
		timestamps = Locked((stored ?? [:]).compactMapValues(Defaults.SyncTimestamp.init(propertyListValue:)))
		following = Locked(Self.following(in: stored ?? [:]))
	}

	private static func following(in contents: [String: PropertyListValue]) -> Set<String> {
		guard case .array(let names)? = contents[followingName] else {
			return []
		}

		return Set(names.compactMap { name in
			if case .string(let name) = name {
				return name
			}

			return nil
		})
	}

	/// Whether the timestamp of `name` follows its stored value: a stored value that differs from the remote entry of the same timestamp is then the later one.
	func follows(_ name: String) -> Bool {
		following.withLock { $0.contains(name) }
	}

	subscript(name: String) -> Defaults.SyncTimestamp? {
		timestamps.withLock { $0[name] }
	}

	/// The latest timestamp recorded that a real clock could give at `now` (Unix milliseconds).
	func latest(plausibleAt now: Int64) -> Defaults.SyncTimestamp? {
		timestamps.withLock { $0.values.filter { $0.implausibility(at: now) == nil }.max() }
	}

	/// Records a timestamp; ``save(storingValuesFirst:)`` makes it durable.
	func record(_ timestamp: Defaults.SyncTimestamp, for name: String) {
		timestamps.withLock { $0[name] = timestamp }
		following.withLock { _ = $0.insert(name) }
		if file != nil {
			unsaved.withLock { $0[name] = timestamp }
		}
	}

	/**
	Writes the timestamps recorded since the last save, in one file update,
	once `storeValues` has made the values they stamp durable (the suite's
	flush): a timestamp on disk says its value is stored, and a process killed
	in between must not leave a stamp over an older value, which the remote's
	entry of that stamp would then never replace.
	*/
	func save(storingValuesFirst storeValues: () throws(Defaults.PersistenceError) -> Void) {
		let changes = unsaved.withLock { unsaved in
			defer { unsaved = [:] }
			return unsaved
		}

		guard let file, !changes.isEmpty else {
			return
		}

		// Taken before the values are stored: every write they stamp was applied before that began, so it is stored too.
		do {
			try storeValues()
		} catch {
			unsaved.withLock { $0.merge(changes) { newer, _ in newer } }
			DiagnosticReporter.report(.syncFailed, key: nil, "sync timestamps were not saved, since the values they stamp could not be: \(error); retrying after the next sync")
			return
		}

		do {
			try file.update { contents in
				var values = contents ?? [:]
				for (name, timestamp) in changes {
					values[name] = timestamp.propertyListValue
				}

				let following = Self.following(in: values).union(changes.keys)
				values[Self.followingName] = .array(following.sorted().map(PropertyListValue.string))
				contents = values
			}
		} catch {
			unsaved.withLock { $0.merge(changes) { newer, _ in newer } }
			DiagnosticReporter.report(.syncFailed, key: nil, "sync timestamps could not be saved: \(error); retrying after the next sync")
		}
	}
}
