/**
When a suite's file is written: the changes not written yet, and the flush
they call for.

A state machine that returns actions: ``SuiteFile`` tells it what happened
(a change was recorded, the flush timer fired, a flush wrote or failed) and
performs what it answers (start a timer, flush now). It reads no clock and
touches no disk, so every decision is testable on its own; the write mode,
durations and whether this process is a forked child are handed in.

- Coalesced writes gather a burst of changes into one flush, timed so that
  the first change is on disk within the write mode's window: the flush
  starts the window less the last write's duration after it. A suite whose
  file takes longer than the window to write waits that duration instead
  (so persisting takes at most half a core), and is on disk within twice it.
- Write-through, and any write in a forked child (dispatch's timer threads
  did not survive the fork, and a thread of its own is not to be started in
  the child of a multithreaded process), flushes at once.
- A failed flush is retried after ``retryDelays``' first wait, doubling up to
  the last; a success starts over from the first.
- A flush clears only the changes it wrote: a change recorded while it ran
  (a newer generation) stays pending for the next.

<!-- check: internal -->
```swift
var policy = FlushPolicy()
let action = policy.recordChange("volume", to: .integer(3), mode: .coalesced(milliseconds: 50), isForkedChild: false)
// action == .schedule(after: .milliseconds(50)): start a timer, then call timerFired() and flush.
```
*/
struct FlushPolicy {
	/// A change this process made and has not written yet.
	struct Change: Equatable {
		/// The new value; `nil`: removed.
		let value: PropertyListValue?
		/// Orders the changes: a flush clears a change only if no newer one replaced it meanwhile.
		let generation: UInt64
	}

	/// What the file must do next.
	enum Action: Equatable {
		case none
		/// Flush once this wait has passed (on a timer), then report ``timerFired()``.
		case schedule(after: Duration)
		/// Flush now, on the caller's thread.
		case now
	}

	/// The wait before retrying a failed flush, doubling after each failure up to the last.
	static let retryDelays: (first: Duration, last: Duration) = (.milliseconds(500), .seconds(60))


	/// The changes not written yet, by name. A forked child starts with none: its parent's pending changes are the parent's to write.
	@ForkLocal private(set) var pending: [String: Change] = [:]

	private var generation: UInt64 = 0

	/// Whether a timer will flush. A forked child starts with none: its parent's timer does not run in it.
	@ForkLocal private(set) var isFlushScheduled = false

	/// How long the last write of the file took (`nil`: none yet); large suites wait longer between writes.
	private(set) var lastWriteDuration: Duration?

	/// The wait before the next retry while flushes fail; `nil` after a success.
	private(set) var retryDelay: Duration?

	/// The changes a flush is to write, as they are now.
	var changesToWrite: [(name: String, change: Change)] {
		pending.map { (name: $0.key, change: $0.value) }
	}

	/// The library changed `name` to `value` (`nil`: removed).
	mutating func recordChange(_ name: String, to value: PropertyListValue?, mode: Defaults.WriteMode, isForkedChild: Bool) -> Action {
		generation += 1
		pending[name] = Change(value: value, generation: generation)
		guard !isForkedChild else {
			return .now
		}

		switch mode {
		case .writeThrough:
			return .now
		case .coalesced(let milliseconds):
			guard !isFlushScheduled else {
				return .none
			}

			isFlushScheduled = true
			return .schedule(after: coalescingDelay(milliseconds: milliseconds))
		}
	}

	/**
	The wait before a coalesced write: the window less the time the write
	itself takes (as the last one did), so a change is on disk within the
	window; a suite whose writes take longer than the window waits as long
	as a write takes.
	*/
	private func coalescingDelay(milliseconds: Int) -> Duration {
		let window = Duration.milliseconds(max(0, milliseconds))
		guard let lastWriteDuration else {
			return window
		}

		return lastWriteDuration <= window ? window - lastWriteDuration : lastWriteDuration
	}

	/// The timer a ``Action/schedule(after:)`` started fired.
	mutating func timerFired() -> Action {
		isFlushScheduled = false
		return .now
	}

	/**
	A flush wrote `changes` (taken from ``changesToWrite``), the file's write
	taking `duration` (`nil`: the file was left as it was). Each change is
	cleared unless a newer one of the same name was recorded meanwhile.
	*/
	mutating func wrote(_ changes: [(name: String, change: Change)], taking duration: Duration?) {
		for (name, change) in changes where pending[name]?.generation == change.generation {
			pending[name] = nil
		}

		lastWriteDuration = duration ?? lastWriteDuration
	}

	/// A flush returned: the next failure waits the first retry delay again.
	mutating func flushSucceeded() {
		retryDelay = nil
	}

	/**
	A flush failed: while changes are pending and no flush is scheduled, it
	is retried after a wait that doubles with each failure. A forked child has
	no timer to retry on: its next write or flush retries.
	*/
	mutating func flushFailed(isForkedChild: Bool) -> Action {
		guard !pending.isEmpty, !isFlushScheduled, !isForkedChild else {
			return .none
		}

		let delay = retryDelay.map { min($0 * 2, Self.retryDelays.last) } ?? Self.retryDelays.first
		retryDelay = delay
		isFlushScheduled = true
		return .schedule(after: delay)
	}
}
