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
  what stops the leader now, reading (`problem`) or publishing
  (`publishingProblem`), which the others report as their own, each for its
  own operation. The others read it as the remote. The leader's own edits
  are serialized in its process; it is replaced atomically, after the term
  is checked again.
- `outbox-<pid>-<random>.plist`: one file per publication handed to the
  leader, written once by its process (a temporary file renamed into place)
  and never changed; the leader publishes the newest entry per key of all of
  them and removes the files it published (or whose entries it rejected), so
  an entry outlives a leader that dies or stops before publishing it.
- `outbox.bell`: opened for writing and closed by a process that added an
  outbox file, so the leader hears of it (the leader also looks at every beat).

Each file is checked at each use (``RelayFile``); one that fails is set
aside and written anew (the mirror from the table, an outbox file by its
writer's next publication, the lock file by the next election). The folder
itself is re-created when it was removed (``prepareFolder()``).
*/
struct HostRelayFiles: Sendable {
	let folder: URL
	let leaderLock: URL
	let mirror: URL
	let outboxBell: URL
	/// Serializes this process's edits of the mirror (the leader's work and its own reads and publications); a lock with no state of its own, as a `Locked` of nothing tripped the thread sanitizer elsewhere.
	private let mirrorEdits = NSLock()

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
		/// What stops the leader's reads of the table now.
		var readingProblem: Defaults.PostgresRemoteStoreError?
		/// What stops the leader's publications now.
		var publishingProblem: Defaults.PostgresRemoteStoreError?
		/// Entries the table cannot hold, by key: the rejected entry's stamp and the server's error.
		var rejected: [String: (timestamp: Defaults.SyncTimestamp, error: Defaults.PostgresRemoteStoreError)]
		/// Counts the publications merged in this term: a read that began at one keeps what was merged after it.
		var sequence: Int
	}

	/**
	Makes the folder again when it was removed (with every missing parent,
	private to the user), and returns why its processes cannot trust it with
	what they publish, or `nil` when they can (``HostRelayLocation/trustProblem(of:)``).
	Asked at every election and before every use: a folder's trust can change
	while its processes run.
	*/
	func prepareFolder() -> String? {
		#if canImport(Glibc)
		var status = stat()
		if lstat(folder.path, &status) != 0, errno == ENOENT {
			// Made by another process meanwhile, or not at all (its parent is gone too, and cannot be made): the check below,
			// or the next look, decides. A folder that is missing is not one others may write to.
			try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
			guard lstat(folder.path, &status) == 0 || errno != ENOENT else {
				return nil
			}
		}
		#endif

		return HostRelayLocation.trustProblem(of: folder)
	}

	/// Temporaries older than this are removed even when a process with the writer's id runs: the id was reused.
	static let abandonedTemporaryAge: TimeInterval = 60

	/**
	Removes the temporary files (`.<name>.<pid>.<random>.tmp`) of writers that
	were killed between writing and renaming: once the writer has exited, or
	the file is older than ``abandonedTemporaryAge``. A writer stopped that long
	finds its temporary gone when it resumes, and writes again.
	*/
	func removeAbandonedTemporaries() {
		#if canImport(Glibc)
		for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix(".") && name.hasSuffix(".tmp") {
			let parts = name.split(separator: ".")
			guard parts.count >= 4, let writer = pid_t(parts[parts.count - 3]) else {
				continue
			}

			let path = folder.appendingPathComponent(name).path
			var status = stat()
			let age = lstat(path, &status) == 0 ? Date().timeIntervalSince1970 - TimeInterval(status.st_mtim.tv_sec) : 0
			if writer != getpid(), kill(writer, 0) != 0 && errno == ESRCH || age > Self.abandonedTemporaryAge {
				unlink(path)
			}
		}
		#endif
	}

	/// The term `leader.lock` names: the current leader's, or the last one's when none leads now; `nil` when
	/// there is none, or the file is not one the relay trusts (the next election sets it aside).
	func currentTerm() -> String? {
		HostRelayLeadership.stamp(at: leaderLock)?.term
	}

	/// The mirror, when it was written in `term`; `nil` when there is none yet (another term's is no longer the namespace).
	func mirror(of term: String?) throws(RelayFile.Failure) -> Mirror? {
		guard let term, let contents = try RelayFile.read(mirror), contents["term"] == .string(term) else {
			return nil
		}

		return Self.mirror(from: contents)
	}

	// MARK: Written by the leader

	/**
	After a full read that began at `sequence`: the mirror becomes `entries`,
	and the reading problem is cleared. An entry published after the read
	began stays when newer than the read's (or absent from it); any other
	entry the mirror held gives way to the table's, even when older (a
	restore), so the processes that hold newer values publish them again.
	*/
	func replaceMirror(with entries: [String: Defaults.RemoteEntry], readSince sequence: Int?, term: String) throws(RelayFile.Failure) {
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
			mirror.readingProblem = nil
		}
	}

	/// After a publication: the entries the table took join the mirror, newest per key (only a mirror read in this
	/// term: into none, they would hide the other keys until the read); `rejected` are set aside for their writers.
	/// The publishing problem is cleared.
	func mergeIntoMirror(_ entries: [String: Defaults.RemoteEntry], rejected: [String: (Defaults.SyncTimestamp, Defaults.PostgresRemoteStoreError)] = [:], term: String) throws(RelayFile.Failure) {
		try updateMirror(term: term) { mirror in
			mirror.sequence += 1
			mirror.publishingProblem = nil
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
	func mergeIntoMirror(_ publication: PostgresDirectStore.Publication, of entries: [String: Defaults.RemoteEntry], term: String) throws(RelayFile.Failure) {
		var rejected: [String: (Defaults.SyncTimestamp, Defaults.PostgresRemoteStoreError)] = [:]
		for (key, error) in publication.rejected {
			if let entry = entries[key] {
				rejected[key] = (entry.timestamp, error)
			}
		}

		try mergeIntoMirror(entries.filter { publication.applied.contains($0.key) }, rejected: rejected, term: term)
	}

	/// Records what stops the leader's `operation` now, keeping what it last read in this term.
	func recordProblem(_ problem: Defaults.PostgresRemoteStoreError, of operation: PostgresDirectStore.OperationKind, term: String) throws(RelayFile.Failure) {
		try updateMirror(term: term) { mirror in
			switch operation {
			case .reading:
				mirror.readingProblem = problem
			case .publishing:
				mirror.publishingProblem = problem
			}
		}
	}

	/// The sequence of the mirror of `term`, to pass to ``replaceMirror(with:readSince:term:)``: `nil` before its first read.
	func sequence(of term: String) -> Int? {
		(try? mirror(of: term))??.sequence
	}

	// MARK: The mirror's contents

	/// The mirror's fields as the leader edits them.
	private struct EditableMirror {
		/// What the mirror held in this term, when it was read in it.
		var current: (entries: [String: Defaults.RemoteEntry], mergedAt: [String: Int])?
		var entries: [String: Defaults.RemoteEntry]?
		var mergedAt: [String: Int]
		var readingProblem: Defaults.PostgresRemoteStoreError?
		var publishingProblem: Defaults.PostgresRemoteStoreError?
		var rejected: [String: (timestamp: Defaults.SyncTimestamp, error: Defaults.PostgresRemoteStoreError)]
		var sequence: Int
	}

	/// Edits the mirror as the leader of `term`; nothing is written once the lock file names another term
	/// (a successor's mirror is never overwritten by a leader that stopped with work in flight).
	private func updateMirror(term: String, _ edit: (inout EditableMirror) -> Void) throws(RelayFile.Failure) {
		// Checked first: a leader that no longer leads (or whose folder was removed) writes nothing.
		guard currentTerm() == term else {
			return
		}

		var setAside: String?
		defer {
			// Reported once this process's lock is released: a diagnostic handler is the user's code.
			if let setAside {
				DiagnosticReporter.report(.syncFailed, key: nil, setAside)
			}
		}

		// (The lock rethrows untyped errors: the failure comes out as a result.)
		try mirrorEdits.withLock { () -> Result<Void, RelayFile.Failure> in
			// A damaged mirror is set aside and rebuilt: this term's next read fills it.
			var contents: [String: PropertyListValue]?
			do throws(RelayFile.Failure) {
				contents = try RelayFile.read(self.mirror)
			} catch {
				guard error.isDamaged else {
					return .failure(error)
				}

				setAside = RelayFile.setAside(error)
			}

			let isThisTerm = contents?["term"] == .string(term)
			let stored = isThisTerm ? contents.map(Self.mirror(from:)) : nil
			let mergedAt = isThisTerm ? Self.integers(in: contents?["mergedAt"]) : [:]
			var mirror = EditableMirror(
				current: stored?.entries.map { ($0, mergedAt) },
				entries: stored?.entries,
				mergedAt: mergedAt,
				readingProblem: stored?.readingProblem,
				publishingProblem: stored?.publishingProblem,
				rejected: stored?.rejected ?? [:],
				sequence: stored?.sequence ?? 0
			)
			edit(&mirror)

			var fields: [String: PropertyListValue] = ["term": .string(term), "leader": .integer(Int(getpid())), "sequence": .integer(mirror.sequence)]
			fields["entries"] = mirror.entries.map { .dictionary($0.mapValues(\.propertyListValue)) }
			fields["mergedAt"] = mirror.mergedAt.isEmpty ? nil : .dictionary(mirror.mergedAt.mapValues { .integer($0) })
			fields["problem"] = mirror.readingProblem?.propertyListValue
			fields["publishingProblem"] = mirror.publishingProblem?.propertyListValue
			fields["rejected"] = mirror.rejected.isEmpty ? nil : .dictionary(mirror.rejected.mapValues { .dictionary(["t": $0.timestamp.propertyListValue, "error": $0.error.propertyListValue]) })
			guard fields != contents else {
				return .success(())
			}

			// Checked again just before the rename: a successor's mirror is not replaced by a leader that was stopped meanwhile.
			return Result { () throws(RelayFile.Failure) in try RelayFile.write(fields, to: self.mirror) { currentTerm() == term } }
		}.get()
	}

	/// The term the mirror was written in, `nil` when there is none (or it is damaged: the leader rebuilds it).
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
			readingProblem: contents["problem"].flatMap(Defaults.PostgresRemoteStoreError.init(propertyListValue:)),
			publishingProblem: contents["publishingProblem"].flatMap(Defaults.PostgresRemoteStoreError.init(propertyListValue:)),
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
