import Testing
@testable import Defaults

/// The flush policy's decisions, with no file, timer or clock: each test feeds it events and checks the actions.
@Suite struct FlushPolicyTests {
	private let coalesced = Defaults.WriteMode.coalesced(milliseconds: 50)

	@Test func aBurstOfCoalescedChangesSchedulesOneFlush() {
		var policy = FlushPolicy()
		#expect(policy.recordChange("a", to: .integer(1), mode: coalesced, isForkedChild: false) == .schedule(after: .milliseconds(50)))
		#expect(policy.recordChange("b", to: .integer(2), mode: coalesced, isForkedChild: false) == .none)
		#expect(policy.recordChange("a", to: .integer(3), mode: coalesced, isForkedChild: false) == .none)
		#expect(policy.isFlushScheduled)
		#expect(policy.pending.mapValues(\.value) == ["a": .integer(3), "b": .integer(2)])

		#expect(policy.timerFired() == .now)
		#expect(!policy.isFlushScheduled)
		policy.wrote(policy.changesToWrite, taking: .milliseconds(1))
		#expect(policy.pending.isEmpty)

		// The next change starts the next burst, timed to be on disk within the window.
		#expect(policy.recordChange("a", to: nil, mode: coalesced, isForkedChild: false) == .schedule(after: .milliseconds(49)))
	}

	@Test func aNegativeWindowFlushesAtTheNextTurn() {
		var policy = FlushPolicy()
		#expect(policy.recordChange("a", to: .integer(1), mode: .coalesced(milliseconds: -5), isForkedChild: false) == .schedule(after: .zero))
	}

	@Test func writeThroughFlushesNowOnEveryChange() {
		var policy = FlushPolicy()
		#expect(policy.recordChange("a", to: .integer(1), mode: .writeThrough, isForkedChild: false) == .now)
		#expect(policy.recordChange("b", to: .integer(2), mode: .writeThrough, isForkedChild: false) == .now)
		#expect(!policy.isFlushScheduled)
	}

	@Test func aForkedChildFlushesNowAndSchedulesNoRetry() {
		var policy = FlushPolicy()
		#expect(policy.recordChange("a", to: .integer(1), mode: coalesced, isForkedChild: true) == .now)
		#expect(!policy.isFlushScheduled)
		// No timer thread to retry on: the child's next write or flush retries.
		#expect(policy.flushFailed(isForkedChild: true) == .none)
		#expect(policy.retryDelay == nil)
		#expect(policy.pending["a"]?.value == .integer(1))
	}

	@Test func retriesBackOffFromHalfASecondDoublingUpToAMinute() {
		var policy = FlushPolicy()
		_ = policy.recordChange("a", to: .integer(1), mode: .writeThrough, isForkedChild: false)
		var waits: [Duration] = []
		for _ in 0..<10 {
			guard case .schedule(let wait) = policy.flushFailed(isForkedChild: false) else {
				Issue.record("a failed flush with changes pending schedules a retry")
				return
			}

			waits.append(wait)
			#expect(policy.timerFired() == .now)
		}

		#expect(waits == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(32), .seconds(60), .seconds(60), .seconds(60)])
	}

	@Test func aSuccessStartsTheBackOffOver() {
		var policy = FlushPolicy()
		_ = policy.recordChange("a", to: .integer(1), mode: .writeThrough, isForkedChild: false)
		#expect(policy.flushFailed(isForkedChild: false) == .schedule(after: .milliseconds(500)))
		_ = policy.timerFired()
		#expect(policy.flushFailed(isForkedChild: false) == .schedule(after: .seconds(1)))
		_ = policy.timerFired()

		policy.wrote(policy.changesToWrite, taking: .milliseconds(1))
		policy.flushSucceeded()
		#expect(policy.retryDelay == nil)
		_ = policy.recordChange("a", to: .integer(2), mode: .writeThrough, isForkedChild: false)
		#expect(policy.flushFailed(isForkedChild: false) == .schedule(after: .milliseconds(500)))
	}

	@Test func aFailureWithAFlushAlreadyScheduledOrNothingPendingSchedulesNoRetry() {
		var policy = FlushPolicy()
		#expect(policy.flushFailed(isForkedChild: false) == .none)

		_ = policy.recordChange("a", to: .integer(1), mode: coalesced, isForkedChild: false)
		// The coalescing timer is still to fire: it is the retry.
		#expect(policy.flushFailed(isForkedChild: false) == .none)
		#expect(policy.retryDelay == nil)
	}

	/// The first change of a burst is on disk within the window: the flush starts the window less a write's duration after it (issue 38: it waited four writes, and a SIGKILL lost writes 200 ms old).
	@Test func aChangeIsOnDiskWithinTheWindowWhenWritesFitInIt() {
		var policy = FlushPolicy()
		for duration in [Duration.zero, .milliseconds(2), .milliseconds(30), .milliseconds(50)] {
			_ = policy.recordChange("a", to: .integer(1), mode: coalesced, isForkedChild: false)
			_ = policy.timerFired()
			policy.wrote(policy.changesToWrite, taking: duration)
			guard case .schedule(let wait) = policy.recordChange("a", to: .integer(2), mode: coalesced, isForkedChild: false) else {
				Issue.record("a coalesced change was not scheduled")
				return
			}

			#expect(wait + duration == .milliseconds(50), "a write of \(duration)")
			_ = policy.timerFired()
			policy.wrote(policy.changesToWrite, taking: duration)
		}
	}

	/// A suite whose file takes longer than the window to write waits one write between writes: at most half a core, on disk within two writes.
	@Test func slowWritesSpaceTheNextFlushOut() {
		var policy = FlushPolicy()
		_ = policy.recordChange("a", to: .integer(1), mode: coalesced, isForkedChild: false)
		_ = policy.timerFired()
		policy.wrote(policy.changesToWrite, taking: .milliseconds(100))
		#expect(policy.recordChange("a", to: .integer(2), mode: coalesced, isForkedChild: false) == .schedule(after: .milliseconds(100)))

		// A fast write brings the window back.
		_ = policy.timerFired()
		policy.wrote(policy.changesToWrite, taking: .milliseconds(2))
		#expect(policy.recordChange("a", to: .integer(3), mode: coalesced, isForkedChild: false) == .schedule(after: .milliseconds(48)))
	}

	@Test func aFlushThatWroteNothingKeepsTheLastWriteDuration() {
		var policy = FlushPolicy()
		_ = policy.recordChange("a", to: .integer(1), mode: coalesced, isForkedChild: false)
		_ = policy.timerFired()
		policy.wrote(policy.changesToWrite, taking: .milliseconds(100))
		_ = policy.recordChange("a", to: .integer(1), mode: .writeThrough, isForkedChild: false)
		policy.wrote(policy.changesToWrite, taking: nil)
		#expect(policy.lastWriteDuration == .milliseconds(100))
		#expect(policy.pending.isEmpty)
	}

	@Test func aChangeRecordedDuringAFlushStaysPending() {
		var policy = FlushPolicy()
		_ = policy.recordChange("a", to: .integer(1), mode: coalesced, isForkedChild: false)
		_ = policy.recordChange("b", to: .integer(1), mode: coalesced, isForkedChild: false)
		_ = policy.timerFired()
		let written = policy.changesToWrite

		// Recorded after the flush took its copy, before it finished.
		#expect(policy.recordChange("a", to: .integer(2), mode: coalesced, isForkedChild: false) == .schedule(after: .milliseconds(50)))
		policy.wrote(written, taking: .milliseconds(1))

		#expect(policy.pending.mapValues(\.value) == ["a": .integer(2)])
		#expect(policy.isFlushScheduled)
	}
}
