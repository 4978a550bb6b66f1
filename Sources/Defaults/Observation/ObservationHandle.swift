import Foundation

/**
The library's ``Defaults/Observation``: registrations with the change engine,
removed when the handle is invalidated or deinitialized.

Without an Objective-C runtime there are no associated objects to learn when a
tied owner dies. Instead a tied handle is kept alive by ``LifetimeTies`` with a
weak reference to its owner; it stops itself at its next callback once the
owner is gone, and ``LifetimeTies`` sweeps dead owners whenever an observation
is created or tied, so nothing is delivered after the owner's deallocation and
nothing is kept for long.
*/
final class ObservationHandle: Defaults.Observation, Sendable {
	private struct State {
		var registrations: [(key: ObservedKey, id: UInt64)] = []
		var isValid = true
		var isTied = false
		weak var owner: AnyObject?
	}

	private let state = Locked(State())
	private let receiver: any ChangeReceiver

	/// Registers `receiver` for every key in `keys`; it hears each change to any of them until the handle is invalidated.
	init(keys: [ObservedKey], wantsPrior: Bool, receiver: any ChangeReceiver) {
		self.receiver = receiver
		LifetimeTies.sweep()
		let registrations = keys.map { key in
			(key: key, id: key.addObserver(wantsPrior: wantsPrior) { [weak self] change in
				self?.receive(change)
			})
		}
		state.withLock { $0.registrations = registrations }
	}

	deinit {
		invalidate()
	}

	/// Whether the observation still runs; `false` once invalidated or once its tied owner is gone.
	var isActive: Bool {
		state.withLock { $0.isValid && !($0.isTied && $0.owner == nil) }
	}

	private func receive(_ change: RawChange) {
		guard isActive else {
			invalidate()
			return
		}

		receiver.receive(change)
	}

	func invalidate() {
		// Untied first: a sweep on another thread that found this handle no longer active would hold it until it had
		// invalidated it again, outliving the caller's last reference.
		LifetimeTies.release(self)
		let registrations = state.withLock { state in
			state.isValid = false
			state.isTied = false
			state.owner = nil
			defer { state.registrations = [] }
			return state.registrations
		}

		for registration in registrations {
			registration.key.removeObserver(registration.id)
		}

		receiver.stop()
	}

	@discardableResult
	func tieToLifetime(of weaklyHeldObject: AnyObject) -> Self {
		let isValid = state.withLock { state in
			state.owner = weaklyHeldObject
			state.isTied = state.isValid
			return state.isValid
		}

		if isValid {
			LifetimeTies.retain(self)
		}

		return self
	}

	func removeLifetimeTie() {
		state.withLock { state in
			state.isTied = false
			state.owner = nil
		}

		LifetimeTies.release(self)
	}
}
