#if Postgres
@testable import DefaultsPostgres
import Foundation
import Testing
@testable import Defaults

/// The host relay's rules for a leader that stops making progress and for the hand-off of entries, with no server: pure values,
/// and the relay's files in a temporary folder (two leaderships of one process contend for `leader.lock` as two processes do).
@Suite("Host relay: a stopped process blocks nobody (rules, no server)")
struct HostRelayRulesTests {
	private let start = ContinuousClock.now

	private func at(_ milliseconds: Int) -> ContinuousClock.Instant {
		start + .milliseconds(milliseconds)
	}

	@Test("a leader whose stamp does not move for the bound is stalled; a beat, a new term or a reset makes it alive again")
	func liveness() {
		var liveness = HostRelayLiveness(bound: .seconds(2))
		let first = HostRelayLiveness.Stamp(term: "a", beat: 1)
		#expect(liveness.observe(first, at: at(0)) == .alive, "first seen: the bound starts now")
		#expect(liveness.observe(first, at: at(1_999)) == .alive)
		#expect(liveness.observe(first, at: at(2_000)) == .stalled)
		#expect(liveness.observe(HostRelayLiveness.Stamp(term: "a", beat: 2), at: at(2_100)) == .alive, "a beat")
		#expect(liveness.observe(HostRelayLiveness.Stamp(term: "a", beat: 2), at: at(4_099)) == .alive)
		#expect(liveness.observe(HostRelayLiveness.Stamp(term: "b", beat: 2), at: at(4_200)) == .alive, "a new term")
		#expect(liveness.observe(HostRelayLiveness.Stamp(term: "b", beat: 2), at: at(6_200)) == .stalled)
		liveness.reset()
		#expect(liveness.observe(HostRelayLiveness.Stamp(term: "b", beat: 2), at: at(60_000)) == .alive, "after a reset, the bound starts again")
		// An observer that looked rarely (it was stopped itself) judges by what it saw: a leader that beat meanwhile is alive.
		#expect(liveness.observe(HostRelayLiveness.Stamp(term: "b", beat: 900), at: at(600_000)) == .alive)
	}

	@Test("a leader beats between rounds and during a round up to the limit, not in a round that runs longer (hung)")
	func beats() {
		#expect(HostRelayLiveness.beats(roundStartedAt: nil, now: at(0), limit: .seconds(11)))
		#expect(HostRelayLiveness.beats(roundStartedAt: at(0), now: at(11_000), limit: .seconds(11)))
		#expect(!HostRelayLiveness.beats(roundStartedAt: at(0), now: at(11_001), limit: .seconds(11)))
	}

	@Test("entries handed over in several outbox files: the newest per key wins, whatever the order")
	func newestPerKey() {
		func entry(_ value: Int, _ milliseconds: Int64) -> Defaults.RemoteEntry {
			Defaults.RemoteEntry(value: .init(value), timestamp: Defaults.SyncTimestamp(milliseconds: milliseconds, counter: 0, device: "d"))
		}

		let handed = [["a": entry(1, 10), "b": entry(2, 30)], ["a": entry(3, 20), "b": entry(4, 5)], ["c": entry(5, 1)]]
		for order in [handed, handed.reversed()] {
			let newest = HostRelayFiles.newestPerKey(order)
			#expect(newest.mapValues { $0.value?.get(Int.self) } == ["a": 3, "b": 2, "c": 5])
		}
	}

	@Test("a stalled leader is taken over within the bound; it steps down at its next beat, and its writes to the copy are fenced")
	func stalledLeaderIsTakenOver() throws {
		let folder = try TemporaryRelayFolder()
		let files = HostRelayFiles(folder: folder.url)
		let stopped = HostRelayLeadership(lockFile: files.leaderLock, stallBound: .milliseconds(300))
		let other = HostRelayLeadership(lockFile: files.leaderLock, stallBound: .milliseconds(300))
		let oldTerm = try #require(stopped.tryToLead())
		try files.replaceMirror(with: [:], readSince: nil, term: oldTerm)
		#expect(files.mirrorTerm() == oldTerm)

		// While the leader beats, nobody takes over.
		let beating = ContinuousClock.now + .milliseconds(700)
		var stop = ContinuousClock.now
		while ContinuousClock.now < beating {
			#expect(stopped.beat(term: oldTerm))
			stop = ContinuousClock.now
			#expect(other.tryToLead() == nil)
			usleep(50_000)
		}

		// It stops beating (SIGSTOP) after its last beat: the other takes over once the stamp has not moved for the bound.
		var newTerm: String?
		while newTerm == nil, ContinuousClock.now - stop < .seconds(5) {
			newTerm = other.tryToLead()
			usleep(20_000)
		}
		let took = ContinuousClock.now - stop
		let term = try #require(newTerm, "not taken over within 5 s")
		#expect(took >= .milliseconds(300) && took < .milliseconds(600), "\(took)")
		#expect(term != oldTerm)
		#expect(files.currentTerm() == term)

		// The stopped leader resumes: what it writes to the copy before its next beat is fenced, and that beat ends its lead.
		let stamp = Defaults.SyncTimestamp(milliseconds: 1, counter: 0, device: "stale")
		try files.mergeIntoMirror(["k": Defaults.RemoteEntry(value: 1, timestamp: stamp)], term: oldTerm)
		#expect(files.mirrorTerm() == oldTerm, "the successor has not written yet; the stale leader wrote nothing")
		#expect(try files.mirror(of: term) == nil)
		#expect(stopped.term == oldTerm)
		#expect(!stopped.beat(term: oldTerm))
		#expect(stopped.term == nil)
		#expect(stopped.tryToLead() == nil, "the successor beats")
		#expect(other.beat(term: term))
		#expect(!other.beat(term: oldTerm), "a run of another term is over")
		#expect(other.term == term)
	}

	@Test("a leader that beats is never taken over, however long the others watch")
	func beatingLeaderStays() throws {
		let folder = try TemporaryRelayFolder()
		let lock = folder.url.appendingPathComponent("leader.lock")
		let leader = HostRelayLeadership(lockFile: lock, stallBound: .milliseconds(200))
		let others = (0..<3).map { _ in HostRelayLeadership(lockFile: lock, stallBound: .milliseconds(200)) }
		let term = try #require(leader.tryToLead())
		let end = ContinuousClock.now + .seconds(1)
		while ContinuousClock.now < end {
			#expect(leader.beat(term: term))
			#expect(others.allSatisfy { $0.tryToLead() == nil })
			usleep(40_000)
		}
		#expect(leader.term == term)
	}

	@Test("the outbox: one file per hand-over, no lock; the leader removes what it read, a later file stays, a temporary file is never read")
	func outbox() throws {
		let folder = try TemporaryRelayFolder()
		let files = HostRelayFiles(folder: folder.url)
		func entry(_ value: Int, _ milliseconds: Int64) -> Defaults.RemoteEntry {
			Defaults.RemoteEntry(value: .init(value), timestamp: Defaults.SyncTimestamp(milliseconds: milliseconds, counter: 0, device: "d"))
		}

		try files.addToOutbox(["a": entry(1, 10)])
		try files.addToOutbox(["a": entry(2, 20), "b": entry(3, 5)])
		// A writer stopped while writing its file: the half-written temporary file is not an outbox file.
		try Data("garbage".utf8).write(to: folder.url.appendingPathComponent(".outbox-1-x.plist.1.2.tmp"))
		#expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent(".outbox.plist.lock").path))

		let waiting = files.waitingEntries(now: HybridLogicalClock.systemMilliseconds())
		#expect(waiting.entries.mapValues { $0.value?.get(Int.self) } == ["a": 2, "b": 3])
		#expect(waiting.files.count == 2)
		#expect(waiting.problems.isEmpty, "\(waiting.problems)")
		try files.addToOutbox(["c": entry(4, 1)])
		files.removeFromOutbox(waiting.files)
		#expect(files.waitingEntries(now: HybridLogicalClock.systemMilliseconds()).entries.mapValues { $0.value?.get(Int.self) } == ["c": 4], "a file added after the read stays")
		#expect(files.hasWaitingEntries())
	}
}

#endif
