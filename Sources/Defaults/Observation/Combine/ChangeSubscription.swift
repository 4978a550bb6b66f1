#if canImport(Combine)
import Combine
#elseif Combine && canImport(OpenCombine)
import OpenCombine
#endif
import Foundation

#if canImport(Combine) || (Combine && canImport(OpenCombine))
/**
Publishes what the change engine delivers for some keys: each subscriber gets
its own registration, made when it subscribes and removed when it cancels.
*/
struct ChangePublisher<Output>: Publisher {
	typealias Failure = Never

	let keys: [ObservedKey]
	let options: Defaults.ObservationOptions

	/// The element `.initial` delivers: the current state, read when the first demand arrives.
	let current: () -> Output

	/// The element for one change the engine delivers, made on the writing thread.
	let element: (RawChange) -> Output

	func receive<Downstream: Subscriber>(subscriber: Downstream) where Downstream.Input == Output, Downstream.Failure == Never {
		let subscription = ChangeSubscription(downstream: subscriber, publisher: self)
		// Registered before the subscriber hears of it, so no write after `subscribe` is missed.
		subscription.register()
		subscriber.receive(subscription: subscription)
	}
}

/**
One subscriber's registrations with the change engine.

Elements are delivered on the writing thread, as `observe` does, but one at a
time: a write made while the subscriber is busy (on another thread, or from
inside its own `receive`) is queued and delivered by the thread already
delivering, because Combine requires a subscriber's calls to be serialized.
Nothing is ever called while our lock is held. Without demand a change is
dropped (as `PassthroughSubject` does), except the `.initial` element, which
waits for the first demand.

`@unchecked Sendable`: its mutable state lives in `Locked`, and the
publisher's closures only read the store, which any thread may do; they
capture the key's generic type, which Swift cannot prove `Sendable`.
*/
final class ChangeSubscription<Downstream: Subscriber>: Subscription, PublisherChangeSink, @unchecked Sendable where Downstream.Failure == Never {
	typealias Output = Downstream.Input

	private enum Pending {
		case current
		case change(Output)
	}

	private struct State {
		var downstream: Downstream?
		var demand = Subscribers.Demand.none
		var wantsCurrent: Bool
		var queue: [Output] = []
		var isDelivering = false
		var registrations: [(key: ObservedKey, id: UInt64)] = []

		/// Makes the caller the delivering thread when there is something to deliver and nobody delivering it.
		mutating func claimDelivery() -> Bool {
			guard !isDelivering, demand > 0, wantsCurrent || !queue.isEmpty else {
				// Nobody will deliver what is queued without demand: drop it.
				if !isDelivering {
					queue = []
				}

				return false
			}

			isDelivering = true
			return true
		}

		/// The next element to deliver, taking one unit of demand; `nil` ends the delivering thread's turn.
		mutating func nextDelivery() -> Delivery? {
			guard let downstream, demand > 0, wantsCurrent || !queue.isEmpty else {
				isDelivering = false
				queue = []
				return nil
			}

			demand -= 1
			if wantsCurrent {
				wantsCurrent = false
				return Delivery(downstream: downstream, pending: .current)
			}

			return Delivery(downstream: downstream, pending: .change(queue.removeFirst()))
		}
	}

	private struct Delivery {
		let downstream: Downstream
		let pending: Pending
	}

	private let state: Locked<State>
	private let publisher: ChangePublisher<Output>

	init(downstream: Downstream, publisher: ChangePublisher<Output>) {
		self.publisher = publisher
		self.state = Locked(State(downstream: downstream, wantsCurrent: publisher.options.contains(.initial)))
	}

	deinit {
		cancel()
	}

	/// Called once, before the subscriber receives the subscription (so before it can cancel).
	func register() {
		let registrations = registerWeakly(self, for: publisher.keys, wantsPrior: publisher.options.contains(.prior))
		state.withLock { $0.registrations = registrations }
	}

	func request(_ demand: Subscribers.Demand) {
		let shouldDeliver = state.withLock { state in
			guard state.downstream != nil else {
				return false
			}

			state.demand += demand
			return state.claimDelivery()
		}

		if shouldDeliver {
			deliver()
		}
	}

	func cancel() {
		let registrations = state.withLock { state in
			state.downstream = nil
			state.queue = []
			defer { state.registrations = [] }
			return state.registrations
		}

		Self.unregister(registrations)
	}

	func receiveChange(_ change: RawChange) {
		let element = publisher.element(change)
		let shouldDeliver = state.withLock { state in
			guard state.downstream != nil else {
				return false
			}

			state.queue.append(element)
			return state.claimDelivery()
		}

		if shouldDeliver {
			deliver()
		}
	}

	/// Runs on the one thread that claimed delivery, until nothing deliverable is left.
	private func deliver() {
		while let delivery = state.withLock({ $0.nextDelivery() }) {
			let element = switch delivery.pending {
			case .current: publisher.current()
			case .change(let element): element
			}

			let additionalDemand = delivery.downstream.receive(element)
			if additionalDemand > 0 {
				state.withLock { $0.demand += additionalDemand }
			}
		}
	}

	private static func unregister(_ registrations: [(key: ObservedKey, id: UInt64)]) {
		for registration in registrations {
			registration.key.removeObserver(registration.id)
		}
	}
}

/// What the change engine calls back: non-generic, so the callback captures no generic type.
protocol PublisherChangeSink: AnyObject, Sendable {
	func receiveChange(_ change: RawChange)
}

/// Registers `receiver` for every key in `keys`, held weakly: the engine keeps no subscription alive.
private func registerWeakly(_ receiver: any PublisherChangeSink, for keys: [ObservedKey], wantsPrior: Bool) -> [(key: ObservedKey, id: UInt64)] {
	keys.map { key in
		(key: key, id: key.addObserver(wantsPrior: wantsPrior) { [weak receiver] change in
			receiver?.receiveChange(change)
		})
	}
}
#endif
