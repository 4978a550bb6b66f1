import Foundation

extension ObservedKey {
	init(_ key: Defaults._AnyKey) {
		self.init(suite: SuiteIdentity.of(key.suite), name: key.name)
	}
}

extension Defaults {
	/**
	Calls `handler` with a typed change every time the library changes `key`.

	The handler runs synchronously on the thread that made the change, once per
	write, for every write path: subscripts, `reset`, `removeAll`, the property
	wrappers. With `.initial` (the default) it is also called with the current
	value before `observe` returns. Writes made with raw `UserDefaults` setters
	are not seen (Linux has no key-value observing).

	Keep the returned observation: releasing it stops the observation.

	```swift
	let observation = Defaults.observe(.quality) { change in
		print(change.newValue)
	}
	// later
	observation.invalidate()
	```
	*/
	public static func observe<Value: Serializable>(
		_ key: Key<Value>,
		options: ObservationOptions = [.initial],
		handler: @escaping (KeyChange<Value>) -> Void
	) -> some Observation {
		observation(of: key, options: options, handler: handler)
	}

	static func observation<Value: Serializable>(
		of key: Key<Value>,
		options: ObservationOptions,
		handler: @escaping (KeyChange<Value>) -> Void
	) -> ObservationHandle {
		let observation = ObservationHandle(keys: [ObservedKey(key)], wantsPrior: options.contains(.prior)) { change in
			handler(KeyChange(change, key: key))
		}

		if options.contains(.initial) {
			handler(KeyChange(isPrior: false, newValue: key.suite[key], oldValue: key.defaultValue))
		}

		return observation
	}

	/**
	Calls `handler` every time the library changes any of `keys`.

	Same delivery rules as ``observe(_:options:handler:)``; with `.initial` the
	handler is called once before this returns.

	```swift
	let observation = Defaults.observe(keys: .quality, .isUnicornMode) {
		refreshUI()
	}
	```
	*/
	public static func observe(
		keys: _AnyKey...,
		options: ObservationOptions = [.initial],
		handler: @escaping () -> Void
	) -> some Observation {
		observation(of: keys, options: options, handler: handler)
	}

	static func observation(
		of keys: [_AnyKey],
		options: ObservationOptions,
		handler: @escaping () -> Void
	) -> ObservationHandle {
		let observation = ObservationHandle(keys: keys.map(ObservedKey.init), wantsPrior: options.contains(.prior)) { _ in
			handler()
		}

		if options.contains(.initial) {
			handler()
		}

		return observation
	}

	/**
	Runs `closure`; changes it makes reach no observer.

	Use it to write a key from its own observer without recursion. It applies to
	the current task (or thread) only, and nesting restores the outer state.

	```swift
	let observation = Defaults.observe(.name) { change in
		Defaults.withoutPropagation {
			Defaults[.name] = change.newValue.trimmingCharacters(in: .whitespaces)
		}
	}
	```
	*/
	public static func withoutPropagation<Result>(_ closure: () throws -> Result) rethrows -> Result {
		try ChangeEngine.$isPropagationSuppressed.withValue(true) {
			try closure()
		}
	}
}
