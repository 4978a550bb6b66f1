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
- records in the copy what stops its reads or its publications (an outage,
  a broken table), which the other processes report as their own, each for
  its operation (so each reports a cause once, as with a connection of its
  own), and clears it at the next read or publication that works;
- beats (``HostRelayLeadership/beat(term:)``) every quarter second, unless one
  round of its work has run longer than the operation timeout and an
  election (it is hung: the others take over), looks for outbox files a lost
  notice left, and stops leading once another process took the lead over
  (this one was stopped or stalled for ``HostRelayLiveness/stallBound``), or
  once the folder stopped being trustworthy (``HostRelayFiles/prepareFolder()``).

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

	/// Why a lead ended.
	enum End: Sendable {
		/// The store is gone (the task was cancelled), or another process took the lead over.
		case stepDown
		/// The folder stopped being one the host's processes can trust: each connects on its own.
		case untrustedFolder(String)
	}

	/// Leads until the task is cancelled, another process took the lead over, or the folder stopped being trustworthy.
	func run() async -> End {
		let end = Locked(End.stepDown)
		let (wakeUps, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
		let pending = Locked(Pending())
		let outboxWatch = RelayFileWatch(url: files.outboxBell) {
			pending.withLock { $0.outbox = true }
			wake.yield()
		}
		let problems = Locked<String?>(nil)
		/// What the outbox held that could not be published, reported once while it stays (the files wait for a publication that works).
		let outboxProblems = Locked<Set<String>>([])
		// Left by writers killed between writing and renaming: nobody else removes them.
		files.removeAbandonedTemporaries()
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

					if let problem = files.prepareFolder() {
						end.withLock { $0 = .untrustedFolder(problem) }
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

					if work.outbox || work.read {
						await publishWaiting(problems: problems, outboxProblems: outboxProblems)
					}

					// A reading problem the copy still shows is read away now, not at the next notice.
					if work.read || (try? files.mirror(of: term))??.readingProblem != nil {
						await refreshCopy(problems: problems)
					}
				}
			}
			// The beat ends when the lead was taken over or the folder stopped being trustworthy; the others only when cancelled.
			await group.next()
			group.cancelAll()
		}

		withExtendedLifetime(outboxWatch) {}
		return end.withLock { $0 }
	}

	/**
	Publishes the outbox. What the table took joins the copy; what it cannot
	hold is set aside in the copy for its writer to report; both leave the
	outbox. When nothing could be published (the connection, the table), the
	problem is recorded in the copy for the writers to report, and the entries
	stay for the next attempt. Damaged outbox files and entries stamped beyond
	any real clock are reported here, by the leader.
	*/
	private func publishWaiting(problems: Locked<String?>, outboxProblems: Locked<Set<String>>) async {
		// Nothing from a folder that stopped being trustworthy: the next beat ends the lead.
		guard HostRelayLocation.trustProblem(of: files.folder) == nil else {
			return
		}

		let waiting = files.waitingEntries(now: HybridLogicalClock.systemMilliseconds())
		let current = Set(waiting.problems)
		let new = outboxProblems.withLock { reported in
			defer { reported = current }
			return current.subtracting(reported)
		}
		for problem in waiting.problems where new.contains(problem) {
			DiagnosticReporter.report(.syncFailed, key: nil, problem)
		}

		guard !waiting.entries.isEmpty else {
			files.removeFromOutbox(waiting.files)
			return
		}

		let publication: PostgresDirectStore.Publication
		do {
			publication = try await direct.publication(of: waiting.entries)
		} catch {
			let problem = Defaults.PostgresRemoteStoreError.from(error)
			record(problem, of: .publishing, problems: problems)
			return
		}

		relayFiles(problems: problems) { () throws(RelayFile.Failure) in
			try files.mergeIntoMirror(publication, of: waiting.entries, term: term)
			// Entries no table can hold as property lists were never handed over: each writer reported its own.
		}
		files.removeFromOutbox(waiting.files)
	}

	/// Reads the namespace into the copy.
	private func refreshCopy(problems: Locked<String?>) async {
		let sequence = files.sequence(of: term)
		do {
			let entries = try await direct.entries()
			relayFiles(problems: problems) { () throws(RelayFile.Failure) in
				try files.replaceMirror(with: entries, readSince: sequence, term: term)
			}
		} catch {
			record(.from(error), of: .reading, problems: problems)
		}
	}

	private func record(_ problem: Defaults.PostgresRemoteStoreError, of operation: PostgresDirectStore.OperationKind, problems: Locked<String?>) {
		// Stopped leading (the store is gone): the work was cut short, nothing failed.
		guard !Task.isCancelled else {
			return
		}

		relayFiles(problems: problems) { () throws(RelayFile.Failure) in
			try files.recordProblem(problem, of: operation, term: term)
		}
	}

	/// Runs an update of the relay's files; a failure (a full disk) is reported once until they can be written again.
	private func relayFiles(problems: Locked<String?>, _ update: () throws(RelayFile.Failure) -> Void) {
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
				DiagnosticReporter.report(.syncFailed, key: nil, "the relay file \(reason) (this process connects to PostgreSQL for the others of its host, which wait until it can write it)")
			}
		}
	}
}
#endif
