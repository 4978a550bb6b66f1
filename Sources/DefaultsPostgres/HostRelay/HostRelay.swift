#if Postgres
import Defaults
import Foundation
import PostgresNIO

/**
A host's processes sharing one connection to a namespace: the
``Defaults/PostgresRemoteStore`` of a process that shares
(``Defaults/PostgresRemoteStore/ConnectionSharing``) reads and publishes
through it.

One process leads (``HostRelayLeadership``): it connects, and runs a
``HostRelayLeader`` that keeps the relay's copy of the namespace and publishes
what the others hand it (``HostRelayFiles``). Every other process:
- reads the copy as the remote, and hears of each change to it within
  milliseconds (inotify), and at every catch-up interval;
- publishes by adding to the outbox, then waits until the copy holds its
  entries (or newer ones), so a publication returns once the table has it,
  as with a connection of its own; the wait ends after the operation
  timeout with an error, and the entries stay in the outbox for the leader;
- reports the leader's problem (an outage, a broken table) as its own: the
  copy carries it.
- tries every second to take the lead, so a leader that ends is replaced;
  and takes it over from a leader whose beat has not moved for
  ``HostRelayLiveness/stallBound`` (stopped, hung, starved: see
  ``HostRelayLeadership``), so a leader that stops making progress is
  replaced within that bound and an election (a publication that waits
  looks five times a second: within the bound and 0.2 s).

No process waits on a lock another process holds: a process stopped at any
point blocks nobody (``HostRelayFiles``).

The leader itself reads and publishes on its connection, and keeps the copy
up to date with what it reads and publishes.
*/
final class HostRelay: Sendable {
	/// How often a process that does not lead tries to: how long a host can be without a leader.
	static let electionInterval = Duration.seconds(1)

	let files: HostRelayFiles
	private let leadership: HostRelayLeadership
	private let direct: PostgresDirectStore
	private let options: Defaults.PostgresRemoteStore.Options
	private let mirrorWatch: RelayFileWatch
	private let state = Locked(State())
	/// Asks the election to try now (it tries every second anyway).
	private let nudge: AsyncStream<Void>.Continuation

	private struct Subscriber {
		let continuation: AsyncStream<Set<String>>.Continuation
		/// Forwards the direct store's changes, once this process connects on its own.
		var forwarding: Task<Void, Never>?
	}

	private struct State {
		var subscribers: [UUID: Subscriber] = [:]
		var election: Task<Void, Never>?
		/// Why this process stopped sharing and connects on its own, for good (the folder stopped being trustworthy).
		var onItsOwn: String?
		/// This process's outbox files not yet published, with the stamp of each entry: a later hand-over of every one of
		/// their keys, newer or as new, replaces them (a writer retrying through a long outage leaves one file, not one per try).
		var handed: [URL: [String: Defaults.SyncTimestamp]] = [:]
	}

	/// The relay `direct`'s store shares, or `nil` when it shares none (or has no folder to share in: reported).
	static func sharing(_ direct: PostgresDirectStore, configuration: PostgresClient.Configuration, options: Defaults.PostgresRemoteStore.Options) -> HostRelay? {
		#if !canImport(Glibc)
		// Built and tested on Linux only (its `flock` and inotify): elsewhere each process connects on its own.
		return nil
		#else
		do {
			guard let folder = try HostRelayLocation.folder(for: options.connectionSharing, configuration: configuration, options: options, namespace: direct.namespace) else {
				return nil
			}

			try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
			if let problem = HostRelayLocation.trustProblem(of: folder) {
				DiagnosticReporter.report(.syncFailed, key: nil, "the PostgreSQL store of namespace '\(direct.namespace)' connects on its own: the folder to share its connection in, \(folder.path), \(problem)")
				return nil
			}

			return HostRelay(folder: folder, direct: direct, options: options)
		} catch {
			DiagnosticReporter.report(.syncFailed, key: nil, "the PostgreSQL store of namespace '\(direct.namespace)' connects on its own: it has no folder to share a connection in (\(error))")
			return nil
		}
		#endif
	}

	private init(folder: URL, direct: PostgresDirectStore, options: Defaults.PostgresRemoteStore.Options) {
		files = HostRelayFiles(folder: folder)
		leadership = HostRelayLeadership(lockFile: files.leaderLock)
		self.direct = direct
		self.options = options
		let state = state
		mirrorWatch = RelayFileWatch(url: files.mirror) {
			for subscriber in state.withLock({ Array($0.subscribers.values) }) {
				subscriber.continuation.yield([])
			}
		}

		let (nudges, nudge) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
		self.nudge = nudge
		let task = Task.detached { [weak self, leadership, files, direct, options] in
			await withTaskGroup(of: Void.self) { group in
				group.addTask {
					repeat {
						nudge.yield()
					} while (try? await Task.sleep(for: Self.electionInterval)) != nil
				}
				group.addTask {
					for await _ in nudges where !Task.isCancelled {
						// A removed folder is made again; one that stopped being trustworthy ends the sharing of this process.
						if let problem = files.prepareFolder() {
							self?.connectOnItsOwn(because: problem)
							return
						}

						if let term = leadership.tryToLead() {
							// Returns when the store is gone, when another process took the lead over (this one follows again),
							// or when the folder stopped being trustworthy.
							if case .untrustedFolder(let problem) = await HostRelayLeader(files: files, direct: direct, leadership: leadership, term: term, options: options).run() {
								self?.connectOnItsOwn(because: problem)
								return
							}

							// This process may already lead again (it took the lead back while waiting for the copy): at once, not at the next election.
							nudge.yield()
						}
					}
				}
				// Leading ends only with the store: whichever ends first, the other stops too.
				await group.next()
				group.cancelAll()
			}
		}
		state.withLock { $0.election = task }
	}

	/// Stops leading or trying to (the store is gone): another process takes over.
	func stop() {
		let (election, subscribers) = state.withLock { state in
			defer { state.subscribers = [:] }
			return (state.election, Array(state.subscribers.values))
		}
		election?.cancel()
		leadership.resign()
		for subscriber in subscribers {
			subscriber.forwarding?.cancel()
			subscriber.continuation.finish()
		}
	}

	/// Whether this process leads the relay now.
	var isLeading: Bool {
		leadership.term != nil
	}

	/**
	Ends this process's sharing for good: its folder stopped being one it can
	trust with what it publishes (another user may write to it now). It stops
	leading, reports it once, and reads, publishes and listens on its own
	connection from now on.
	*/
	private func connectOnItsOwn(because problem: String) {
		let (election, subscribers) = state.withLock { state -> (Task<Void, Never>?, [UUID]) in
			guard state.onItsOwn == nil else {
				return (nil, [])
			}

			state.onItsOwn = problem
			return (state.election, Array(state.subscribers.keys))
		}
		guard let election else {
			return
		}

		election.cancel()
		leadership.resign()
		DiagnosticReporter.report(.syncFailed, key: nil, "the PostgreSQL store of namespace '\(direct.namespace)' connects on its own from now on: the folder its host's processes share a connection in, \(files.folder.path), \(problem)")
		for id in subscribers {
			forward(to: id)
		}
	}

	/// The problem that made this process connect on its own, checking the folder first (its trust can change at any time).
	private func checkedOnItsOwn() -> String? {
		if let problem = state.withLock({ $0.onItsOwn }) {
			return problem
		}

		if let problem = files.prepareFolder() {
			connectOnItsOwn(because: problem)
			return problem
		}

		return nil
	}

	func entries() async throws -> [String: Defaults.RemoteEntry] {
		if checkedOnItsOwn() != nil {
			return try await direct.entries()
		}

		if let term = leadership.term {
			let sequence = files.sequence(of: term)
			let entries = try await direct.entries()
			try? files.replaceMirror(with: entries, readSince: sequence, term: term)
			return entries
		}

		return try await waitForMirror { mirror in
			if let problem = mirror.readingProblem {
				throw problem
			}

			return mirror.entries
		}
	}

	func publish(_ entries: [String: Defaults.RemoteEntry]) async throws {
		if checkedOnItsOwn() != nil {
			return try await direct.publish(entries)
		}

		if let term = leadership.term {
			let publication = try await direct.publication(of: entries)
			try? files.mergeIntoMirror(publication, of: entries, term: term)
			if let rejection = publication.rejected.min(by: { $0.key < $1.key }) {
				throw rejection.value
			}

			return
		}

		// What no table can hold is reported here, by the process that wrote it, as without sharing.
		let publishable = Set(PostgresDirectStore.rows(of: entries).map(\.key))
		let handed = entries.filter { publishable.contains($0.key) }
		guard !handed.isEmpty else {
			return
		}

		let file = try hand(handed)
		let rejections = try await waitForMirror(handedIn: file) { mirror -> [String: Defaults.PostgresRemoteStoreError]? in
			var rejections: [String: Defaults.PostgresRemoteStoreError] = [:]
			for (key, entry) in handed {
				if let rejection = mirror.rejected[key], rejection.timestamp == entry.timestamp {
					rejections[key] = rejection.error
				} else if !(mirror.entries?[key].map({ $0.timestamp >= entry.timestamp }) ?? false) {
					// Not published yet: what stops the leader's publications is this publication's failure too.
					if let problem = mirror.publishingProblem {
						throw problem
					}

					return nil
				}
			}

			return rejections
		}

		if let rejection = rejections.min(by: { $0.key < $1.key }) {
			throw rejection.value
		}
	}

	/// Hands `entries` to the leader in a new outbox file, and removes this process's earlier ones it replaces; returns the file.
	private func hand(_ entries: [String: Defaults.RemoteEntry]) throws -> URL {
		let (file, problems): (URL, [String])
		do {
			(file, problems) = try files.addToOutbox(entries)
		} catch {
			throw Defaults.PostgresRemoteStoreError.sharedConnection(path: error.path, reason: error.reason)
		}

		for problem in problems {
			DiagnosticReporter.report(.syncFailed, key: nil, problem)
		}

		let replaced = state.withLock { state in
			// Files the leader consumed are forgotten; those this hand-over replaces are removed.
			state.handed = state.handed.filter { RelayFile.identity(of: $0.key) != nil }
			let replaced = Self.replaced(state.handed, by: entries)
			for url in replaced {
				state.handed[url] = nil
			}

			state.handed[file] = entries.mapValues(\.timestamp)
			return replaced
		}
		files.removeFromOutbox(replaced)
		return file
	}

	/// This process's earlier outbox files that a hand-over of `entries` replaces: each of their keys is in it, as new or newer.
	static func replaced(_ handed: [URL: [String: Defaults.SyncTimestamp]], by entries: [String: Defaults.RemoteEntry]) -> [URL] {
		handed.compactMap { url, stamps in
			stamps.allSatisfy { key, stamp in entries[key].map { $0.timestamp >= stamp } ?? false } ? url : nil
		}
	}

	func changes() -> AsyncStream<Set<String>> {
		let (stream, continuation) = AsyncStream.makeStream(of: Set<String>.self, bufferingPolicy: .bufferingNewest(1))
		let id = UUID()
		let isOnItsOwn = state.withLock { state in
			state.subscribers[id] = Subscriber(continuation: continuation)
			return state.onItsOwn != nil
		}
		if isOnItsOwn {
			forward(to: id)
		}

		// The leader catches up with the table; this catches up with a change of the copy whose notice was lost.
		let catchUp = options.catchUpInterval.map { interval in
			Task.detached {
				while (try? await Task.sleep(for: interval)) != nil {
					continuation.yield([])
				}
			}
		}
		continuation.onTermination = { [state] _ in
			catchUp?.cancel()
			state.withLock { $0.subscribers.removeValue(forKey: id) }?.forwarding?.cancel()
		}

		return stream
	}

	/// From now on subscriber `id` hears the direct store's changes (this process connects on its own), starting with a look now.
	private func forward(to id: UUID) {
		state.withLock { state in
			guard let continuation = state.subscribers[id]?.continuation else {
				return
			}

			state.subscribers[id]?.forwarding = Task.detached { [direct] in
				continuation.yield([])
				for await keys in direct.changes() {
					continuation.yield(keys)
				}
			}
		}
	}

	/**
	Waits until the copy of the current term gives what `accept` looks for, and returns it
	(`accept` throws the leader's problem that concerns it); gives up after the operation
	timeout (plus an election) when no copy of the current term gives it. A copy that is
	damaged is waited through (its leader rebuilds it) and named when the wait ends. With
	`handedIn`, the outbox file this process handed its entries in: when the leader set it
	aside unpublished (damaged), the wait ends at once.
	*/
	private func waitForMirror<Value>(handedIn file: URL? = nil, _ accept: (HostRelayFiles.Mirror) throws -> Value?) async throws -> Value {
		let limit = options.operationTimeout + Self.electionInterval
		let deadline = ContinuousClock.now + limit
		var seenChanges: UInt64?
		var lastRead = ContinuousClock.now
		var damage: RelayFile.Failure?
		// Short at first (a publication usually lands within milliseconds), then easing off, so many waiting processes cost little.
		var pause = Duration.milliseconds(1)
		while true {
			// Read again only when the copy changed, or a notice may have been lost (every 200 ms).
			let changes = mirrorWatch.changeCount
			if changes != seenChanges || ContinuousClock.now - lastRead > .milliseconds(200) {
				seenChanges = changes
				lastRead = ContinuousClock.now
				// A copy is the namespace only while its leader lives: when nobody holds the lock, this process takes the lead.
				let term = leadership.tryToLead()
				if term != nil {
					nudge.yield()
				}

				// Looked at before the copy: the leader adds what it published to the copy before it removes the file. (A file
				// this process replaced by a later hand-over is not waited for: that one holds its entries, as new or newer.)
				// Gone and kept aside, not published (a leader that consumed it before its first read of the table leaves no copy aside).
				let isFileGone = file.map { file in
					RelayFile.identity(of: file) == nil && state.withLock { $0.handed[file] != nil } && files.isSetAside(file)
				} ?? false
				do {
					if let mirror = try files.mirror(of: term ?? files.currentTerm()) {
						damage = nil
						if let value = try accept(mirror) {
							return value
						}
					}
				} catch let failure as RelayFile.Failure {
					damage = failure
				}

				if isFileGone, let file {
					throw Defaults.PostgresRemoteStoreError.sharedConnection(path: file.path, reason: "was set aside unpublished by the process connecting for this host (it could not read it); published again at the next attempt")
				}
			}

			guard ContinuousClock.now < deadline else {
				if let damage {
					throw Defaults.PostgresRemoteStoreError.sharedConnection(path: damage.path, reason: damage.reason + "; the process connecting for this host has not rebuilt it within \(limit)")
				}

				throw Defaults.PostgresRemoteStoreError.sharedConnection(path: files.folder.path, reason: "had no answer within \(limit) from the process connecting to PostgreSQL for this host (stopped, or unable to write the folder?); another takes over when it stalls")
			}

			try await Task.sleep(for: pause)
			pause = min(pause * 2, .milliseconds(20))
		}
	}
}
#endif
