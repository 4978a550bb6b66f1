import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// Trials of the fork test; raise for a long run: `DEFAULTS_FORK_TRIALS=50 swift test --filter ForkTests`.
private let forkTrials = TestEnvironment.count("DEFAULTS_FORK_TRIALS", default: 3)

@Suite("fork(): a child writes only its own changes")
struct ForkTests {
	/**
	The parent had a change pending when it forked, then wrote a newer value and
	flushed; the child's exit flush must not put the old one back.

	A forked child of a multithreaded process can deadlock before it gets
	there: it runs Swift code, and a lock of the Swift runtime (or of the
	thread sanitizer) held by another thread at the fork stays held in the
	child forever. That is fork's rule, not this library's, so such a trial is
	stopped, counted as inconclusive and run again.
	*/
	@Test func aForkedChildDoesNotWriteItsParentsPendingChanges() throws {
		let suite = TestSuite()
		var kept = 0
		var childWritesKept = 0
		var conclusive = 0
		var deadlocked = 0
		var trial = 0
		while conclusive < forkTrials, deadlocked <= 3 * forkTrials {
			trial += 1
			let key = "shared\(trial)"
			let own = "child\(trial)"
			let helper = try HelperProcess.start(["fork-pending", suite.name, key, own])
			guard let status = helper.waitUntilExit(timeout: 60) else {
				deadlocked += 1
				continue
			}

			conclusive += 1
			#expect(status == 0)
			#expect(helper.receivedLines == ["child exited 0"], "\(helper.receivedLines)")
			let contents = suite.fileContents()
			if contents?[key] as? Int == 2 {
				kept += 1
			}
			if contents?[own] as? Int == 3 {
				childWritesKept += 1
			}
		}

		print("measured: fork trials: \(conclusive) conclusive, \(deadlocked) stopped (a child deadlocked after the fork)")
		#expect(conclusive == forkTrials, "too many forked children deadlocked: \(deadlocked)")
		#expect(kept == conclusive, "the parent's newer value survived the child's exit in \(kept)/\(conclusive)")
		#expect(childWritesKept == conclusive, "the child's own write was flushed at its exit in \(childWritesKept)/\(conclusive)")
	}

	/**
	A long-lived worker forked from a multithreaded process persists its own
	writes within the coalescing window, as any process does: before, its
	flush was scheduled on dispatch's timer threads, which do not exist in a
	forked child (or it believed its parent's pending timer was its own), so
	its writes reached no other process and were lost to SIGKILL.
	*/
	@Test func aLongLivedForkedWorkerPersistsItsWritesWithoutExiting() async throws {
		let suite = TestSuite()
		var persisted = 0
		var conclusive = 0
		var deadlocked = 0
		var trial = 0
		while conclusive < forkTrials, deadlocked <= 3 * forkTrials {
			trial += 1
			let key = "worker\(trial)"
			let helper = try HelperProcess.start(["fork-worker", suite.name, key, "pending\(trial)"])
			let written = helper.waitForLine(timeout: 60) { $0.hasPrefix("worker ") && $0.hasSuffix(" written") }
			guard let written, let worker = pid_t(written.split(separator: " ")[1]) else {
				// The child deadlocked after the fork (see above), or never got that far.
				helper.kill()
				_ = helper.waitUntilExit(timeout: 60)
				deadlocked += 1
				continue
			}

			conclusive += 1
			let seen = await eventually(timeout: .seconds(20)) { suite.fileContents()?[key] as? Int == 7 }
			kill(worker, SIGKILL)
			#expect(helper.waitUntilExit(timeout: 60) == 0)
			if seen {
				persisted += 1
			}
		}

		#expect(conclusive == forkTrials, "too many forked children deadlocked: \(deadlocked)")
		#expect(persisted == conclusive, "the worker's write reached the file while it ran in \(persisted)/\(conclusive)")
	}
}
