import Dispatch
import Foundation

/**
Hands one observer's changes to its handler, in order, in the isolation the
observer was registered from.

- Registered from nonisolated code (`isolation` is `nil`): the handler runs
  synchronously on the writing thread, before the write returns.
- Registered on an actor (the main actor, an `actor`, a global actor): the
  handler runs only while isolated to that actor. A change made on the main
  actor to a main-actor observer is delivered before the write returns; any
  other change is queued, and one task on the actor runs the queue in order.

The queue is per observer, so the changes of a key reach it in the order they
were made, however many threads write. A change that arrives while the handler
runs (from another thread, or from the handler itself writing the key) is run
after the handler returns, by the same loop: never nested, never reordered. The
lock guards the queue only; no handler runs while it is held.
*/
final class ObserverDelivery<Change>: ChangeReceiver, @unchecked Sendable {
	// Unchecked: `handler` is not `Sendable`. When `actor` is set, the handler and every
	// queued change are only touched by `runPending()`, which runs isolated to `actor`
	// (asserted there); each change is made for this observer alone, so queuing it shares
	// nothing. When `actor` is nil the caller registered from nonisolated code, and the
	// handler runs on the writing thread: see ``Defaults/observe(_:options:isolation:handler:)``.
	// `makeChange` is the library's own conversion, safe on any thread.
	private let actor: (any Actor)?
	private let makeChange: (RawChange) -> Change
	private let handler: (Change) -> Void
	private let queue = Locked(Queue())

	private struct Queue {
		var pending: [Change] = []
		var next = 0
		var isRunning = false
		var isRunScheduled = false
		var isStopped = false

		mutating func popFirst() -> Change? {
			guard !isStopped, next < pending.count else {
				pending.removeAll()
				next = 0
				return nil
			}

			defer { next += 1 }
			return pending[next]
		}
	}

	/// `makeChange` turns the engine's raw change into what `handler` takes; `isolation` is where `handler` must run (nil: anywhere).
	init(isolation: (any Actor)?, makeChange: @escaping (RawChange) -> Change, handler: @escaping (Change) -> Void) {
		self.actor = isolation
		self.makeChange = makeChange
		self.handler = handler
	}

	/// Called on the writing thread for each change; runs the handler now or queues the change for its actor.
	func receive(_ change: RawChange) {
		deliver(makeChange(change))
	}

	private func deliver(_ change: Change) {
		guard let actor else {
			handler(change)
			return
		}

		if actor is MainActor, MainQueue.isCurrent {
			queue.withLock { $0.pending.append(change) }
			MainActor.assumeIsolated {
				runPending()
			}
			return
		}

		let mustSchedule = queue.withLock { queue in
			guard !queue.isStopped else {
				return false
			}

			queue.pending.append(change)
			guard !queue.isRunning, !queue.isRunScheduled else {
				return false
			}

			queue.isRunScheduled = true
			return true
		}

		if mustSchedule {
			Task {
				await self.run(on: actor)
			}
		}
	}

	/**
	Runs `change` now, from code already isolated to the observer's actor (the
	`.initial` callback, delivered before `observe` returns).
	*/
	func deliverNow(_ change: Change, isolation: isolated (any Actor)?) {
		guard actor != nil else {
			handler(change)
			return
		}

		queue.withLock { $0.pending.append(change) }
		runPending()
	}

	/// Drops the queued changes; nothing more reaches the handler.
	func stop() {
		queue.withLock { queue in
			queue.isStopped = true
			queue.pending.removeAll()
			queue.next = 0
		}
	}

	private func run(on actor: isolated any Actor) {
		queue.withLock { $0.isRunScheduled = false }
		runPending()
	}

	/// Runs the queued changes in order. The caller is isolated to `actor`.
	private func runPending() {
		actor?.assertIsolated("an observer's handler must run on the actor it was registered from")
		let isOutermost = queue.withLock { queue in
			defer { queue.isRunning = true }
			return !queue.isRunning
		}

		// A handler that writes its own key lands here; the loop below delivers the change once it returns.
		guard isOutermost else {
			return
		}

		while let change = queue.withLock({ queue in
			let change = queue.popFirst()
			if change == nil {
				queue.isRunning = false
			}
			return change
		}) {
			handler(change)
		}
	}
}

/**
Whether the caller runs on the main queue, which runs the main actor's jobs.

Not just `Thread.isMainThread`: on Linux, once the main thread hands the main
queue to `dispatchMain()` (as test runners do), the main actor runs on another
thread.
*/
private enum MainQueue {
	private static let key = DispatchSpecificKey<Bool>()
	private static let marked: Void = DispatchQueue.main.setSpecific(key: key, value: true)

	static var isCurrent: Bool {
		_ = marked
		return Thread.isMainThread || DispatchQueue.getSpecific(key: key) == true
	}
}
