#if Configuration
import Defaults

/**
The current value of something read from a suite, then the new value after
each change to the stored names it depends on (any name when `names` is `nil`).

Reads happen outside every lock: a read may run the user's secrets
specifier. Concurrent changes may finish their reads out of order, so each
read takes a ticket first and a read older than one already delivered is
dropped: the change applied last is read by the callback that started last,
so the last value delivered is always the suite's latest.
*/
final class ChangeStream<Element: Sendable & Equatable>: Sendable {
	let stream: AsyncStream<Element>
	private let continuation: AsyncStream<Element>.Continuation
	private let observation: any Defaults.Observation & Sendable

	private struct Delivery {
		var nextTicket: UInt64 = 0
		var deliveredTicket: UInt64?
		var delivered: Element?
	}

	init(suite: Suite, names: [String]?, read: @escaping @Sendable () -> Element) {
		let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(1))
		let delivery = Locked(Delivery())
		let publish: @Sendable () -> Void = {
			let ticket = delivery.withLock { delivery in
				defer { delivery.nextTicket += 1 }
				return delivery.nextTicket
			}

			let value = read()
			delivery.withLock { delivery in
				guard delivery.deliveredTicket.map({ ticket > $0 }) ?? true else {
					return
				}

				// Even an unchanged value is newer than the reads still in flight.
				delivery.deliveredTicket = ticket
				guard value != delivery.delivered else {
					return
				}

				delivery.delivered = value
				// Non-blocking, and it runs no user code: the waiting task is only scheduled.
				continuation.yield(value)
			}
		}

		// Observe first, then read: a change made in between is delivered, not missed.
		self.observation = suite.observe(names, handler: publish)
		self.stream = stream
		self.continuation = continuation
		publish()
	}

	/// Stops observing; the stream finishes after what it holds.
	func stop() {
		observation.invalidate()
		continuation.finish()
	}
}
#endif
