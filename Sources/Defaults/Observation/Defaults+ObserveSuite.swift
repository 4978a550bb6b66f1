import Foundation

extension Defaults {
	/**
	Calls `handler` after every change to any key of `suite`, with the name of
	the key that changed.

	It hears what key observers hear, for every key, declared or not: the
	library's writes, `reset`, `removeAll` (one change per key removed),
	migrations and renamed keys once they commit, sync pulls, and other
	processes' writes to the suite's file (`defaults write` among them), which
	the suite is watched for from this call on, and changes to the global
	domain (`defaults write -g`), which every suite reads. Raw `UserDefaults` setters in
	this process are heard once `synchronize()` writes them, like another
	process's. Keep the returned observation: releasing it stops the
	observation.

	```swift
	let observation = Defaults.observe(suite: .standard) { change in
		print("\(change.name) changed")   // e.g. log every settings change
	}
	// later
	observation.invalidate()
	```

	The handler runs where ``observe(_:options:isolation:handler:)`` says: on the
	caller's actor (synchronously for a change made there, else enqueued in
	order), or synchronously on the writing thread when called from
	nonisolated code. Nothing is delivered for the current values: read the
	suite when you start observing if you need them.
	*/
	public static func observe(
		suite: UserDefaults,
		isolation: isolated (any Actor)? = #isolation,
		handler: @escaping (SuiteChange) -> Void
	) -> some Observation {
		suiteObservation(of: suite, isolation: isolation, handler: handler)
	}

	/**
	An element for every change to any key of `suite`, with the name of the key
	that changed: the asynchronous form of ``observe(suite:isolation:handler:)``.

	```swift
	for await change in Defaults.updates(suite: .standard) {
		print("\(change.name) changed")
	}
	```

	The sequence buffers every change until it is consumed, so none is lost;
	ending the loop (or cancelling its task) stops the observation.
	*/
	public static func updates(suite: UserDefaults) -> AsyncStream<SuiteChange> {
		AsyncStream { continuation in
			let observation = suiteObservation(of: suite, isolation: nil) { change in
				continuation.yield(change)
			}

			continuation.onTermination = { _ in
				observation.invalidate()
			}
		}
	}

	static func suiteObservation(
		of defaults: UserDefaults,
		isolation: isolated (any Actor)? = #isolation,
		handler: @escaping (SuiteChange) -> Void
	) -> ObservationHandle {
		let delivery = ObserverDelivery(isolation: isolation, makeChange: SuiteChange.init, handler: handler)
		return ObservationHandle(keys: [.everyKey(of: Suite.of(defaults))], wantsPrior: false, receiver: delivery)
	}
}
