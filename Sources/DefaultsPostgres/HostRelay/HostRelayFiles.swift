#if Postgres
import Defaults
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/**
The files a relay's processes share. None is guarded by a lock that
several processes take: a process stopped at any point (SIGSTOP, a debugger,
a frozen cgroup) holds nothing another waits on (``RelayFile``).

- `leader.lock`: the leader holds a `flock` on it and writes its term and
  beat into it (``HostRelayLeadership``).
- `mirror.plist`, written by the leader only, and only while the lock file
  names its term: the namespace as the leader last read it (`entries`,
  absent until its first read of the term), what it published since
  (`mergedAt`, by `sequence`), the entries the table cannot hold (`rejected`,
  with the server's error, for the process that wrote them to report), and
  the `problem` that stops the leader now, if any. The others read it as
  the remote. The leader's own edits are serialized in its process; it is
  replaced atomically, after the term is checked again.
- `outbox-<pid>-<random>.plist`: one file per publication handed to the
  leader, written once by its process (a temporary file renamed into place)
  and never changed; the leader publishes the newest entry per key of all of
  them and removes the files it published (or whose entries it rejected), so
  an entry outlives a leader that dies or stops before publishing it.
- `outbox.bell`: opened for writing and closed by a process that added an
  outbox file, so the leader hears of it (the leader also looks at every beat).
*/
struct HostRelayFiles: Sendable {
	let folder: URL
	let leaderLock: URL
	let mirror: URL
	let outboxBell: URL
	/// Serializes this process's edits of the mirror (the leader's work and its own reads and publications).
	private let mirrorEdits = Locked(())

	static let outboxPrefix = "outbox-"
	static let outboxSuffix = ".plist"

	init(folder: URL) {
		self.folder = folder
		leaderLock = folder.appendingPathComponent("leader.lock")
		mirror = folder.appendingPathComponent("mirror.plist")
		outboxBell = folder.appendingPathComponent("outbox.bell")
	}

	/// The namespace as a leader read it in its term.
	struct Mirror {
		/// `nil` until the leader's first read of its term succeeded.
		var entries: [String: Defaults.RemoteEntry]?
		var problem: Defaults.PostgresRemoteStoreError?
		/// Entries the table cannot hold, by key: the rejected entry's stamp and the server's error.
		var rejected: [String: (timestamp: Defaults.SyncTimestamp, error: Defaults.PostgresRemoteStoreError)]
		/// Counts the publications merged in this term: a read that began at one keeps what was merged after it.
		var sequence: Int
	}

	/// The term `leader.lock` names: the current leader's, or the last one's when none leads now; `nil` when
	/// there is none, or the file is not a regular file (it is never waited on).
	func currentTerm() -> String? {
		#if canImport(Glibc)
		let descriptor = open(leaderLock.path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
		guard descriptor >= 0 else {
			return nil
		}

		defer { close(descriptor) }
		var status = stat()
		guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
			return nil
		}

		var bytes = [UInt8](repeating: 0, count: HostRelayLeadership.termLength)
		guard pread(descriptor, &bytes, bytes.count, 0) == bytes.count else {
			return nil
		}

		return String(decoding: bytes, as: UTF8.self)
		#else
		return nil
		#endif
	}

	/// The mirror, when it was written in `term`; `nil` when there is none yet (another term's is no longer the namespace).
	func mirror(of term: String?) -> Mirror? {
		guard let term, let contents = try? RelayFile.read(mirror), contents["term"] == .string(term) else {
			return nil
		}

		return Self.mirror(from: contents)
	}

	// MARK: Written by the leader

	/**
	After a full read that began at `sequence`: the mirror becomes `entries`,
	and the problem becomes `problem`. An entry published after the read began
	stays when newer than the read's (or absent from it); any other entry the
	mirror held gives way to the table's, even when older (a restore), so the
	processes that hold newer values publish them again.
	*/
	func replaceMirror(with entries: [String: Defaults.RemoteEntry], readSince sequence: Int?, problem: Defaults.PostgresRemoteStoreError? = nil, term: String) throws {
		try updateMirror(term: term) { mirror in
			var merged = entries
			var mergedAt: [String: Int] = [:]
			if let current = mirror.current, let sequence {
				for (key, published) in current.mergedAt where published > sequence {
					if let entry = current.entries[key], merged[key].map({ entry.timestamp > $0.timestamp }) ?? true {
						merged[key] = entry
						mergedAt[key] = published
					}
				}
			}

			mirror.entries = merged
			mirror.mergedAt = mergedAt
			mirror.problem = problem
		}
	}

	/// After a publication: the entries the table took join the mirror, newest per key (only a mirror read in this
	/// term: into none, they would hide the other keys until the read); `rejected` are set aside for their writers.
	func mergeIntoMirror(_ entries: [String: Defaults.RemoteEntry], rejected: [String: (Defaults.SyncTimestamp, Defaults.PostgresRemoteStoreError)] = [:], term: String) throws {
		try updateMirror(term: term) { mirror in
			mirror.sequence += 1
			if mirror.current != nil {
				for (key, entry) in entries where mirror.entries?[key].map({ entry.timestamp > $0.timestamp }) ?? true {
					mirror.entries?[key] = entry
					mirror.mergedAt[key] = mirror.sequence
				}
			}

			for (key, entry) in entries where mirror.rejected[key].map({ $0.timestamp <= entry.timestamp }) ?? false {
				mirror.rejected[key] = nil
			}

			for (key, rejection) in rejected {
				mirror.rejected[key] = rejection
			}
		}
	}

	/// After a publication of `entries`: what the table took joins the mirror, what it cannot hold is set aside.
	func mergeIntoMirror(_ publication: PostgresDirectStore.Publication, of entries: [String: Defaults.RemoteEntry], term: String) throws {
		var rejected: [String: (Defaults.SyncTimestamp, Defaults.PostgresRemoteStoreError)] = [:]
		for (key, error) in publication.rejected {
			if let entry = entries[key] {
				rejected[key] = (entry.timestamp, error)
			}
		}

		try mergeIntoMirror(entries.filter { publication.applied.contains($0.key) }, rejected: rejected, term: term)
	}

	/// Records what stops the leader now, keeping what it last read in this term.
	func recordProblem(_ problem: Defaults.PostgresRemoteStoreError, term: String) throws {
		try updateMirror(term: term) { mirror in
			mirror.problem = problem
		}
	}

	/// The sequence of the mirror of `term`, to pass to ``replaceMirror(with:readSince:problem:term:)``: `nil` before its first read.
	func sequence(of term: String) -> Int? {
		mirror(of: term)?.sequence
	}

	/// The entries waiting to be published, newest per key, and the outbox files they come from.
	func waitingEntries() -> (entries: [String: Defaults.RemoteEntry], files: [URL]) {
		let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter(Self.isOutboxFile)
		var handed: [[String: Defaults.RemoteEntry]] = []
		var files: [URL] = []
		for name in names.sorted() {
			let url = folder.appendingPathComponent(name)
			// A file that vanished was published meanwhile; one that does not read stays for the next attempt.
			guard let contents = (try? RelayFile.read(url)) ?? nil else {
				continue
			}

			handed.append(contents.compactMapValues(Defaults.RemoteEntry.init(propertyListValue:)))
			files.append(url)
		}

		return (Self.newestPerKey(handed), files)
	}

	/// Whether any outbox file waits.
	func hasWaitingEntries() -> Bool {
		((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).contains(where: Self.isOutboxFile)
	}

	/// Removes outbox files once what they held was published (or rejected); each file is never changed after it is written, so nothing newer is lost.
	func removeFromOutbox(_ files: [URL]) {
		for file in files {
			unlink(file.path)
		}
	}

	/// The newest entry per key of several hand-overs (the later one when two stamps are equal).
	static func newestPerKey(_ handed: [[String: Defaults.RemoteEntry]]) -> [String: Defaults.RemoteEntry] {
		var newest: [String: Defaults.RemoteEntry] = [:]
		for entries in handed {
			for (key, entry) in entries where newest[key].map({ entry.timestamp >= $0.timestamp }) ?? true {
				newest[key] = entry
			}
		}

		return newest
	}

	/// Whether `name` is an outbox file: `outbox-<pid>-<random>.plist` (not a temporary file, which starts with a dot).
	static func isOutboxFile(_ name: String) -> Bool {
		name.hasPrefix(outboxPrefix) && name.hasSuffix(outboxSuffix)
	}

	// MARK: Written by the others

	/// Hands entries to the leader: a new outbox file of this process, written whole before it appears; returns it.
	@discardableResult
	func addToOutbox(_ entries: [String: Defaults.RemoteEntry]) throws -> URL {
		let url = folder.appendingPathComponent("\(Self.outboxPrefix)\(getpid())-\(UUID().uuidString.lowercased())\(Self.outboxSuffix)")
		try RelayFile.write(entries.mapValues(\.propertyListValue), to: url)
		ringOutboxBell()
		return url
	}

	/// Tells the leader that the outbox changed: a close after writing wakes its watch (no lock, no content).
	private func ringOutboxBell() {
		#if canImport(Glibc)
		let descriptor = open(outboxBell.path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
		if descriptor >= 0 {
			close(descriptor)
		}
		#endif
	}

	// MARK: The mirror's contents

	/// The mirror's fields as the leader edits them.
	private struct EditableMirror {
		/// What the mirror held in this term, when it was read in it.
		var current: (entries: [String: Defaults.RemoteEntry], mergedAt: [String: Int])?
		var entries: [String: Defaults.RemoteEntry]?
		var mergedAt: [String: Int]
		var problem: Defaults.PostgresRemoteStoreError?
		var rejected: [String: (timestamp: Defaults.SyncTimestamp, error: Defaults.PostgresRemoteStoreError)]
		var sequence: Int
	}

	/// Edits the mirror as the leader of `term`; nothing is written once the lock file names another term
	/// (a successor's mirror is never overwritten by a leader that stopped with work in flight).
	private func updateMirror(term: String, _ edit: (inout EditableMirror) -> Void) throws {
		// Checked first: a leader that no longer leads (or whose folder was removed) writes nothing.
		guard currentTerm() == term else {
			return
		}

		try mirrorEdits.withLock { _ in
			// A mirror that does not read (damaged) is rebuilt: this term's next read fills it.
			let contents = (try? RelayFile.read(self.mirror)) ?? nil
			let isThisTerm = contents?["term"] == .string(term)
			let stored = isThisTerm ? contents.map(Self.mirror(from:)) : nil
			let mergedAt = isThisTerm ? Self.integers(in: contents?["mergedAt"]) : [:]
			var mirror = EditableMirror(
				current: stored?.entries.map { ($0, mergedAt) },
				entries: stored?.entries,
				mergedAt: mergedAt,
				problem: stored?.problem,
				rejected: stored?.rejected ?? [:],
				sequence: stored?.sequence ?? 0
			)
			edit(&mirror)

			var fields: [String: PropertyListValue] = ["term": .string(term), "leader": .integer(Int(getpid())), "sequence": .integer(mirror.sequence)]
			fields["entries"] = mirror.entries.map { .dictionary($0.mapValues(\.propertyListValue)) }
			fields["mergedAt"] = mirror.mergedAt.isEmpty ? nil : .dictionary(mirror.mergedAt.mapValues { .integer($0) })
			fields["problem"] = mirror.problem?.propertyListValue
			fields["rejected"] = mirror.rejected.isEmpty ? nil : .dictionary(mirror.rejected.mapValues { .dictionary(["t": $0.timestamp.propertyListValue, "error": $0.error.propertyListValue]) })
			guard fields != contents else {
				return
			}

			// Checked again just before the rename: a successor's mirror is not replaced by a leader that was stopped meanwhile.
			try RelayFile.write(fields, to: self.mirror) { currentTerm() == term }
		}
	}

	/// The term the mirror was written in, `nil` when there is none: the leader checks that it is still its own.
	func mirrorTerm() -> String? {
		guard case .string(let term)? = ((try? RelayFile.read(mirror)) ?? nil)?["term"] else {
			return nil
		}

		return term
	}

	private static func mirror(from contents: [String: PropertyListValue]) -> Mirror {
		var rejected: [String: (timestamp: Defaults.SyncTimestamp, error: Defaults.PostgresRemoteStoreError)] = [:]
		if case .dictionary(let stored)? = contents["rejected"] {
			for (key, value) in stored {
				if case .dictionary(let fields) = value,
				   let timestamp = fields["t"].flatMap(Defaults.SyncTimestamp.init(propertyListValue:)),
				   let error = fields["error"].flatMap(Defaults.PostgresRemoteStoreError.init(propertyListValue:)) {
					rejected[key] = (timestamp, error)
				}
			}
		}

		var sequence = 0
		if case .integer(let stored)? = contents["sequence"] {
			sequence = stored
		}

		return Mirror(
			entries: entries(in: contents["entries"]),
			problem: contents["problem"].flatMap(Defaults.PostgresRemoteStoreError.init(propertyListValue:)),
			rejected: rejected,
			sequence: sequence
		)
	}

	/// The entries of a stored dictionary; an entry that does not decode (a damaged file) is left out.
	private static func entries(in stored: PropertyListValue?) -> [String: Defaults.RemoteEntry]? {
		guard case .dictionary(let fields) = stored else {
			return nil
		}

		return fields.compactMapValues(Defaults.RemoteEntry.init(propertyListValue:))
	}

	private static func integers(in stored: PropertyListValue?) -> [String: Int] {
		guard case .dictionary(let fields) = stored else {
			return [:]
		}

		return fields.compactMapValues { value in
			if case .integer(let number) = value {
				return number
			}

			return nil
		}
	}
}
#endif
