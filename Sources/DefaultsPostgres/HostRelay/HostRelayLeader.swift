#if Postgres
import Defaults
import Foundation

/**
What the process that leads a relay does for the others, for as long as it
leads (until its store is gone): it holds the change feed's connection, and

- at each change the feed announces (another process's publication, a
  reconnection, the catch-up interval, a retry after a failure), publishes
  what waits in the outbox, then reads the namespace and replaces the copy;
- at each change of the outbox, publishes what waits there, and adds it to
  the copy once the table took it;
- records in the copy what stops it (an outage, a broken table), which the
  other processes report, and clears it at the next read that works;
- beats (``HostRelayLeadership/beat(term:)``) every quarter second, unless one
  round of its work has run longer than the operation timeout and an
  election (it is hung: the others take over), looks for outbox files a lost
  notice left, and stops leading once another process took the lead over
  (this one was stopped or stalled for ``HostRelayLiveness/stallBound``).

Work is coalesced: a burst of changes costs one publication and one read.
*/
struct HostRelayLeader: Sendable {
	let files: HostRelayFiles
	let direct: PostgresDirectStore
	let leadership: HostRelayLeadership
	let term: String
	let options: Defaults.PostgresRemoteStore.Options

	private struct Pending {
		var outbox = true
		var read = true
	}

	/// Leads until the task is cancelled, or another process took the lead over.
	func run() async {
		let (wakeUps, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
		let pending = Locked(Pending())
		let outboxWatch = RelayFileWatch(url: files.outboxBell) {
			pending.withLock { $0.outbox = true }
			wake.yield()
		}
		let problems = Locked<String?>(nil)
		/// When the current round of work began; `nil` between rounds.
		let roundStart = Locked<ContinuousClock.Instant?>(nil)
		let hungAfter = options.operationTimeout + HostRelay.electionInterval

		await withTaskGroup(of: Void.self) { group in
			group.addTask {
				for await _ in direct.changes() {
					pending.withLock { $0.read = true }
					wake.yield()
				}
			}
			group.addTask {
				var wroteMirror = false
				var seenMirror: [UInt64]?
				while (try? await Task.sleep(for: HostRelayLiveness.beatInterval)) != nil {
					guard HostRelayLiveness.beats(roundStartedAt: roundStart.withLock { $0 }, now: .now, limit: hungAfter) else {
						continue
					}

					guard leadership.beat(term: term) else {
						// Taken over: this process follows from now on.
						return
					}

					// A leader stopped between its check of the term and its rename may have put its own mirror back: read only a mirror that changed.
					var mirrorLost = false
					let identity = RelayFile.identity(of: files.mirror).map { [$0.device, $0.inode] }
					if identity != seenMirror {
						seenMirror = identity
						let mirrorTerm = files.mirrorTerm()
						mirrorLost = wroteMirror && mirrorTerm != term
						wroteMirror = wroteMirror || mirrorTerm == term
					}

					let outbox = files.hasWaitingEntries()
					if mirrorLost || outbox {
						pending.withLock {
							$0.read = $0.read || mirrorLost
							$0.outbox = $0.outbox || outbox
						}
						wake.yield()
					}
				}
			}
			group.addTask {
				wake.yield()
				for await _ in wakeUps {
					let work = pending.withLock { pending in
						defer { pending = Pending(outbox: false, read: false) }
						return pending
					}
					roundStart.withLock { $0 = .now }
					defer { roundStart.withLock { $0 = nil } }

					var publishingProblem: Defaults.PostgresRemoteStoreError?
					if work.outbox || work.read {
						publishingProblem = await publishWaiting(problems: problems)
					}

					// A problem the copy still shows after a publication that worked is read away now, not at the next notice.
					if work.read || (publishingProblem == nil && files.mirror(of: term)?.problem != nil) {
						await refreshCopy(keeping: publishingProblem, problems: problems)
					}
				}
			}
			// The beat ends when the lead was taken over; the others only when cancelled.
			await group.next()
			group.cancelAll()
		}

		withExtendedLifetime(outboxWatch) {}
	}

	/**
	Publishes the outbox. What the table took joins the copy; what it cannot
	hold is set aside in the copy for its writer to report; both leave the
	outbox. Returns the problem when nothing could be published (the
	connection, the table): the entries stay for the next attempt.
	*/
	private func publishWaiting(problems: Locked<String?>) async -> Defaults.PostgresRemoteStoreError? {
		let (waiting, handed) = files.waitingEntries()
		guard !waiting.isEmpty else {
			files.removeFromOutbox(handed)
			return nil
		}

		let publication: PostgresDirectStore.Publication
		do {
			publication = try await direct.publication(of: waiting)
		} catch {
			let problem = Defaults.PostgresRemoteStoreError.from(error)
			record(problem, problems: problems)
			return problem
		}

		relayFiles(problems: problems) {
			try files.mergeIntoMirror(publication, of: waiting, term: term)
			// Entries no table can hold as property lists were never handed over: each writer reported its own.
		}
		files.removeFromOutbox(handed)
		return nil
	}

	/// Reads the namespace into the copy; the problem stays `problem`, a publication that failed in the same round.
	private func refreshCopy(keeping problem: Defaults.PostgresRemoteStoreError?, problems: Locked<String?>) async {
		let sequence = files.sequence(of: term)
		do {
			let entries = try await direct.entries()
			relayFiles(problems: problems) {
				try files.replaceMirror(with: entries, readSince: sequence, problem: problem, term: term)
			}
		} catch {
			record(.from(error), problems: problems)
		}
	}

	private func record(_ problem: Defaults.PostgresRemoteStoreError, problems: Locked<String?>) {
		// Stopped leading (the store is gone): the work was cut short, nothing failed.
		guard !Task.isCancelled else {
			return
		}

		relayFiles(problems: problems) {
			try files.recordProblem(problem, term: term)
		}
	}

	/// Runs an update of the relay's files; a failure (a full disk) is reported once until they can be written again.
	private func relayFiles(problems: Locked<String?>, _ update: () throws -> Void) {
		// No longer leading (the store is gone): its successor writes the files now.
		guard !Task.isCancelled else {
			return
		}

		do {
			try update()
			problems.withLock { $0 = nil }
		} catch {
			let reason = "\(error)"
			if problems.withLock({ $0 != reason ? ($0 = reason, true).1 : false }) {
				DiagnosticReporter.report(.syncFailed, key: nil, "the PostgreSQL store cannot update the files it shares its connection through, in \(files.folder.path): \(reason); the other processes of this host wait until it can")
			}
		}
	}
}
#endif
