import Foundation

/**
Runs a suite's coalesced flush once its window has passed.

A process runs them on ``PersistenceSettings/queue``. A child forked from a
multithreaded process cannot: its dispatch worker and timer threads did not
survive the fork, so a block it schedules never runs and a long-lived forked
worker would keep its writes in memory until it exits (or lose them to
SIGKILL). A forked process runs its flushes on a thread of its own instead,
started on its first write.
*/
enum FlushTimer {
	static func schedule(after delay: DispatchTimeInterval, _ work: @escaping @Sendable () -> Void) {
		guard ForkDetection.generation != 0 else {
			PersistenceSettings.queue.asyncAfter(deadline: .now() + delay, execute: work)
			return
		}

		ForkedProcessTimerThread.current.schedule(after: delay, work)
	}
}

/// The thread that runs a forked process's delayed work, one per process.
private final class ForkedProcessTimerThread: Sendable {
	private struct Entry {
		let deadline: DispatchTime
		let work: @Sendable () -> Void
	}

	/// The thread of this process, with the fork generation it was started in: a child of a child starts its own.
	private static let perProcess = Locked<(generation: UInt64, thread: ForkedProcessTimerThread)?>(nil)

	static var current: ForkedProcessTimerThread {
		perProcess.withLock { current in
			let generation = ForkDetection.generation
			if let current, current.generation == generation {
				return current.thread
			}

			let thread = ForkedProcessTimerThread()
			current = (generation, thread)
			thread.start()
			return thread
		}
	}

	private let entries = Locked<[Entry]>([])
	private let wakeUp = NSCondition()

	func schedule(after delay: DispatchTimeInterval, _ work: @escaping @Sendable () -> Void) {
		// Under the condition's lock: the thread looks at the entries under it too, so it never misses this signal.
		wakeUp.lock()
		entries.withLock { $0.append(Entry(deadline: .now() + delay, work: work)) }
		wakeUp.signal()
		wakeUp.unlock()
	}

	private func start() {
		let thread = Thread { [self] in
			// A termination signal's flush must never park the thread that flushes.
			TerminationSignalFlush.withSignalsDeferred {
				while true {
					for work in waitForDueWork() {
						work()
					}
				}
			}
		}
		thread.name = "Defaults.FlushTimer"
		thread.start()
	}

	/// Waits until some work is due (or a new entry may be) and takes what is due.
	private func waitForDueWork() -> [@Sendable () -> Void] {
		wakeUp.lock()
		defer { wakeUp.unlock() }
		let now = DispatchTime.now()
		let (due, next) = entries.withLock { entries -> ([Entry], DispatchTime?) in
			let due = entries.filter { $0.deadline <= now }
			entries.removeAll { $0.deadline <= now }
			return (due, entries.map(\.deadline).min())
		}
		if due.isEmpty {
			let nanoseconds = next.map { $0.uptimeNanoseconds - now.uptimeNanoseconds } ?? 3_600_000_000_000
			_ = wakeUp.wait(until: Date() + Double(nanoseconds) / 1e9)
		}

		return due.map(\.work)
	}
}
