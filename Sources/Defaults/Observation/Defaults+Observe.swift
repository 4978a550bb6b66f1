import Foundation

extension Defaults {
	/**
	Calls `handler` with a typed change every time the library changes `key`.

	Every write path is seen: subscripts, `reset`, `removeAll`, the property
	wrappers, sync, and other processes' writes once noticed. Writes made with
	raw `UserDefaults` setters are not (Linux has no key-value observing). Keep
	the returned observation: releasing it stops the observation.

	```swift
	let observation = Defaults.observe(.quality) { change in
		print(change.oldValue, "→", change.newValue)
	}
	// later
	observation.invalidate()
	```

	## Where and when the handler runs

	The handler runs in the isolation of the code that called `observe`, which
	`isolation` captures (leave it out):

	- **Called from an actor** — a `@MainActor` type, an `actor`, a global
	  actor: the handler always runs on that actor, so it may use the actor's
	  state. For the main actor, a change made on the main actor (the main
	  thread or main queue) is delivered synchronously, before the write
	  returns. Any other change — from a background thread, a detached task,
	  another process, and for other actors even from the actor itself — is
	  delivered later: it is enqueued to the actor and delivered shortly after,
	  in order.
	- **Called from nonisolated code**: the handler runs synchronously on the
	  thread that made the change, before the write returns, possibly on
	  several threads at once. Make it safe to run anywhere: mark the closure
	  `@Sendable` to have the compiler check what it captures.

	Either way the handler sees the changes of `key` one at a time, in the order
	they were made. A handler on an actor is never re-entered: a change it makes
	to the key it observes is delivered after it returns. With `.initial` (the
	default) the handler is called with the current value before `observe`
	returns (`oldValue` is then the key's default). With `.prior` it is also
	called before each change, with `isPrior == true`. Changes still queued for
	the actor when the observation is invalidated or released are dropped.

	From nonisolated code the compiler cannot see where the handler will run:
	make it `@Sendable` (`{ @Sendable change in … }`) so that Swift 6 checks
	what it captures. To have a handler run on the writing thread although
	`observe` is called from an actor, pass `isolation: nil` with a `@Sendable`
	handler.

	```swift
	@MainActor
	final class SettingsModel {
		var quality = 0.0

		init() {
			Defaults.observe(.quality) { [weak self] change in
				self?.quality = change.newValue   // always on the main actor
			}
			.tieToLifetime(of: self)
		}
	}
	```
	*/
	public static func observe<Value: Serializable>(
		_ key: Key<Value>,
		options: ObservationOptions = [.initial],
		isolation: isolated (any Actor)? = #isolation,
		handler: @escaping (KeyChange<Value>) -> Void
	) -> some Observation {
		observation(of: key, options: options, isolation: isolation, handler: handler)
	}

	/// Also used by the library's own observers (``updates(_:initial:)``), which register from nonisolated code.
	static func observation<Value: Serializable>(
		of key: Key<Value>,
		options: ObservationOptions,
		isolation: isolated (any Actor)? = #isolation,
		handler: @escaping (KeyChange<Value>) -> Void
	) -> ObservationHandle {
		let delivery = ObserverDelivery(isolation: isolation, makeChange: { KeyChange($0, key: key) }, handler: handler)
		let observation = ObservationHandle(keys: [ObservedKey(key)], wantsPrior: options.contains(.prior), receiver: delivery)
		if options.contains(.initial) {
			delivery.deliverNow(KeyChange(isPrior: false, newValue: key.suite[key], oldValue: key.defaultValue), isolation: isolation)
		}

		return observation
	}

	/**
	Calls `handler` every time the library changes any of `keys`.

	The handler runs where and when ``observe(_:options:isolation:handler:)``
	says: on the caller's actor (synchronously for a change made there, else
	enqueued in order), or synchronously on the writing thread when called from
	nonisolated code. With `.initial` it is called once before this returns.

	```swift
	let observation = Defaults.observe(keys: .quality, .isUnicornMode) {
		print("quality or unicorn mode changed")
	}
	```
	*/
	public static func observe(
		keys: _AnyKey...,
		options: ObservationOptions = [.initial],
		isolation: isolated (any Actor)? = #isolation,
		handler: @escaping () -> Void
	) -> some Observation {
		observation(of: keys, options: options, isolation: isolation, handler: handler)
	}

	/// Also used by the library's own several-key observers (``updates(_:initial:)``).
	static func observation(
		of keys: [_AnyKey],
		options: ObservationOptions,
		isolation: isolated (any Actor)? = #isolation,
		handler: @escaping () -> Void
	) -> ObservationHandle {
		let delivery = ObserverDelivery(isolation: isolation, makeChange: { _ in }, handler: handler)
		let observation = ObservationHandle(keys: keys.map(ObservedKey.init), wantsPrior: options.contains(.prior), receiver: delivery)
		if options.contains(.initial) {
			delivery.deliverNow((), isolation: isolation)
		}

		return observation
	}

	/**
	Runs `closure`; changes it makes reach no observer.

	Use it to write a key from its own observer without recursion. It applies to
	the current task (or thread) only, and nesting restores the outer state.

	```swift
	let observation = Defaults.observe(.username) { change in
		Defaults.withoutPropagation {
			Defaults[.username] = change.newValue?.trimmingCharacters(in: .whitespaces)
		}
	}
	```
	*/
	public static func withoutPropagation<Result>(_ closure: () throws -> Result) rethrows -> Result {
		try ObserverTable.$isPropagationSuppressed.withValue(true) {
			try closure()
		}
	}
}
