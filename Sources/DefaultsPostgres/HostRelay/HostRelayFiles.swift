#if Postgres
import Defaults
import Foundation

/**
The files a relay's processes share, besides the leader's lock:

- `mirror.plist`, written by the leader only: the namespace as the leader
  last read it (`entries`, absent until its first read of the term), the
  `term` it was written in, and the `problem` that stops the leader reading
  or publishing now, if any. The other processes read it as the remote.
- `outbox.plist`: entries the other processes hand the leader to publish,
  newest per key. The leader removes an entry only once published, so an
  entry outlives a leader that dies before publishing it.

Both are replaced atomically under their lock, like a suite's file.
*/
struct HostRelayFiles: Sendable {
	let folder: URL
	let mirror: PreferencesFile
	let outbox: PreferencesFile

	init(folder: URL) {
		self.folder = folder
		mirror = PreferencesFile(url: folder.appendingPathComponent("mirror.plist"))
		outbox = PreferencesFile(url: folder.appendingPathComponent("outbox.plist"))
	}

	/// The namespace as a leader read it in `term`.
	struct Mirror {
		/// `nil` until the leader's first read of its term succeeded.
		var entries: [String: Defaults.RemoteEntry]?
		var problem: Defaults.PostgresRemoteStoreError?
	}

	/// The mirror, when it was written in `term`; `nil` when there is none yet (another term's is no longer the namespace).
	func mirror(of term: String?) -> Mirror? {
		guard let term, let contents = try? mirror.read(), contents["term"] == .string(term) else {
			return nil
		}

		return Mirror(entries: Self.entries(in: contents["entries"]), problem: contents["problem"].flatMap(Defaults.PostgresRemoteStoreError.init(propertyListValue:)))
	}

	// MARK: Written by the leader

	/// After a full read: the mirror becomes `entries`, keeping a newer entry published since the read began; the problem is gone.
	func replaceMirror(with entries: [String: Defaults.RemoteEntry], term: String) throws {
		try mirror.update { contents in
			var merged = entries
			if contents?["term"] == .string(term), let mirrored = Self.entries(in: contents?["entries"]) {
				for (key, entry) in mirrored where merged[key].map({ entry.timestamp > $0.timestamp }) ?? false {
					merged[key] = entry
				}
			}

			contents = Self.contents(term: term, entries: merged, problem: nil)
		}
	}

	/// After a publication the table took: its entries join the mirror, newest per key (only a mirror of this term: a partial one would hide the other keys).
	func mergeIntoMirror(_ entries: [String: Defaults.RemoteEntry], term: String) throws {
		try mirror.update { contents in
			guard contents?["term"] == .string(term), var mirrored = Self.entries(in: contents?["entries"]) else {
				return
			}

			for (key, entry) in entries where mirrored[key].map({ entry.timestamp > $0.timestamp }) ?? true {
				mirrored[key] = entry
			}

			contents?["entries"] = Self.stored(mirrored)
		}
	}

	/// Records what stops the leader now, keeping the entries last read in this term.
	func recordProblem(_ problem: Defaults.PostgresRemoteStoreError, term: String) throws {
		try mirror.update { contents in
			let entries = contents?["term"] == .string(term) ? Self.entries(in: contents?["entries"]) : nil
			contents = Self.contents(term: term, entries: entries, problem: problem)
		}
	}

	/// The entries waiting to be published.
	func waitingEntries() -> [String: Defaults.RemoteEntry] {
		Self.entries(in: (try? outbox.read()).flatMap { $0.map(PropertyListValue.dictionary) }) ?? [:]
	}

	/// Removes the published entries from the outbox (an entry that changed meanwhile stays, for the next publication).
	func removeFromOutbox(_ published: [String: Defaults.RemoteEntry]) throws {
		try outbox.update { contents in
			for (key, entry) in published {
				if let waiting = contents?[key].flatMap(Defaults.RemoteEntry.init(propertyListValue:)), waiting.timestamp <= entry.timestamp {
					contents?[key] = nil
				}
			}

			if contents?.isEmpty == true {
				contents = nil
			}
		}
	}

	// MARK: Written by the others

	/// Hands entries to the leader, keeping the newest per key.
	func addToOutbox(_ entries: [String: Defaults.RemoteEntry]) throws {
		try outbox.update { contents in
			var waiting = contents ?? [:]
			for (key, entry) in entries where waiting[key].flatMap(Defaults.RemoteEntry.init(propertyListValue:)).map({ entry.timestamp > $0.timestamp }) ?? true {
				waiting[key] = entry.propertyListValue
			}

			contents = waiting
		}
	}

	// MARK: Encoding

	private static func contents(term: String, entries: [String: Defaults.RemoteEntry]?, problem: Defaults.PostgresRemoteStoreError?) -> [String: PropertyListValue] {
		var contents: [String: PropertyListValue] = ["term": .string(term), "leader": .integer(Int(getpid()))]
		contents["entries"] = entries.map(stored)
		contents["problem"] = problem?.propertyListValue
		return contents
	}

	private static func stored(_ entries: [String: Defaults.RemoteEntry]) -> PropertyListValue {
		.dictionary(entries.mapValues(\.propertyListValue))
	}

	/// The entries of a stored dictionary; an entry that does not decode (a damaged file) is left out.
	private static func entries(in stored: PropertyListValue?) -> [String: Defaults.RemoteEntry]? {
		guard case .dictionary(let fields) = stored else {
			return nil
		}

		return fields.compactMapValues(Defaults.RemoteEntry.init(propertyListValue:))
	}
}
#endif
