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
	private let subscribers: Locked<[UUID: AsyncStream<Set<String>>.Continuation]>
	private let election = Locked<Task<Void, Never>?>(nil)
	/// Asks the election to try now (it tries every second anyway).
	private let nudge: AsyncStream<Void>.Continuation

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
		leadership = HostRelayLeadership(lockFile: folder.appendingPathComponent("leader.lock"))
		self.direct = direct
		self.options = options
		let subscribers = Locked<[UUID: AsyncStream<Set<String>>.Continuation]>([:])
		self.subscribers = subscribers
		mirrorWatch = RelayFileWatch(url: files.mirror) {
			for continuation in subscribers.withLock({ Array($0.values) }) {
				continuation.yield([])
			}
		}

		let (nudges, nudge) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
		self.nudge = nudge
		let task = Task.detached { [leadership, files, direct, options] in
			await withTaskGroup(of: Void.self) { group in
				group.addTask {
					repeat {
						nudge.yield()
					} while (try? await Task.sleep(for: Self.electionInterval)) != nil
				}
				group.addTask {
					for await _ in nudges where !Task.isCancelled {
						if let term = leadership.tryToLead() {
							// Returns when the store is gone, or when another process took the lead over: this one follows again.
							await HostRelayLeader(files: files, direct: direct, leadership: leadership, term: term, options: options).run()
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
		election.withLock { $0 = task }
	}

	/// Stops leading or trying to (the store is gone): another process takes over.
	func stop() {
		election.withLock { $0 }?.cancel()
		leadership.resign()
		for continuation in subscribers.withLock({ Array($0.values) }) {
			continuation.finish()
		}
	}

	/// Whether this process leads the relay now.
	var isLeading: Bool {
		leadership.term != nil
	}

	func entries() async throws -> [String: Defaults.RemoteEntry] {
		if let term = leadership.term {
			let sequence = files.sequence(of: term)
			let entries = try await direct.entries()
			try? files.replaceMirror(with: entries, readSince: sequence, term: term)
			return entries
		}

		return try await waitForMirror { $0.entries }
	}

	func publish(_ entries: [String: Defaults.RemoteEntry]) async throws {
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

		try files.addToOutbox(handed)
		let rejections = try await waitForMirror { mirror -> [String: Defaults.PostgresRemoteStoreError]? in
			var rejections: [String: Defaults.PostgresRemoteStoreError] = [:]
			for (key, entry) in handed {
				if let rejection = mirror.rejected[key], rejection.timestamp == entry.timestamp {
					rejections[key] = rejection.error
				} else if !(mirror.entries?[key].map({ $0.timestamp >= entry.timestamp }) ?? false) {
					return nil
				}
			}

			return rejections
		}

		if let rejection = rejections.min(by: { $0.key < $1.key }) {
			throw rejection.value
		}
	}

	func changes() -> AsyncStream<Set<String>> {
		let (stream, continuation) = AsyncStream.makeStream(of: Set<String>.self, bufferingPolicy: .bufferingNewest(1))
		let id = UUID()
		subscribers.withLock { $0[id] = continuation }
		// The leader catches up with the table; this catches up with a change of the copy whose notice was lost.
		let catchUp = options.catchUpInterval.map { interval in
			Task.detached {
				while (try? await Task.sleep(for: interval)) != nil {
					continuation.yield([])
				}
			}
		}
		continuation.onTermination = { [subscribers] _ in
			catchUp?.cancel()
			subscribers.withLock { $0[id] = nil }
		}

		return stream
	}

	/**
	Waits until the copy of the current term gives what `accept` looks for, and returns it;
	throws the leader's problem when it records one, and gives up after the operation timeout
	(plus an election) when no copy of the current term gives it.
	*/
	private func waitForMirror<Value>(_ accept: (HostRelayFiles.Mirror) -> Value?) async throws -> Value {
		let limit = options.operationTimeout + Self.electionInterval
		let deadline = ContinuousClock.now + limit
		var seenChanges: UInt64?
		var lastRead = ContinuousClock.now
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

				if let mirror = files.mirror(of: term ?? files.currentTerm()) {
					if let problem = mirror.problem {
						throw problem
					}

					if let value = accept(mirror) {
						return value
					}
				}
			}

			guard ContinuousClock.now < deadline else {
				throw Defaults.PostgresRemoteStoreError.unreachable(after: limit, lastConnectionError: "no process connecting for this host's processes answered (they share a connection through \(files.folder.path))")
			}

			try await Task.sleep(for: pause)
			pause = min(pause * 2, .milliseconds(20))
		}
	}
}
#endif
