import Foundation

extension Defaults {
	/**
	The values of `key` as an asynchronous sequence: the current value first
	(unless `initial` is `false`), then one element per change.

	Observation stops when the consuming task ends or is cancelled. Changes are
	buffered on the writing thread and reach the iterating task in order,
	wherever it runs.

	```swift
	Task {
		for await quality in Defaults.updates(.quality) {
			print("Quality:", quality)
		}
	}
	```
	*/
	public static func updates<Value: Serializable & Sendable>(
		_ key: Key<Value>,
		initial: Bool = true
	) -> AsyncStream<Value> {
		AsyncStream { continuation in
			let observation = observation(of: key, options: initial ? [.initial] : [], isolation: nil) { change in
				continuation.yield(change.newValue)
			}

			continuation.onTermination = { _ in
				observation.invalidate()
			}
		}
	}

	/**
	The values of several keys as tuples: the current values first (unless
	`initial` is `false`), then all of them again whenever any one changes.

	```swift
	for await (quality, username) in Defaults.updates(.quality, .username) {
		print(quality, username ?? "nobody")
	}
	```
	*/
	public static func updates<each Value: Serializable & Sendable>(
		_ keys: repeat Key<each Value>,
		initial: Bool = true
	) -> AsyncStream<(repeat each Value)> {
		var anyKeys: [_AnyKey] = []
		repeat anyKeys.append(each keys)
		let read = TupleReader(repeat each keys)

		return AsyncStream { continuation in
			let observation = observation(of: anyKeys, options: initial ? [.initial] : [], isolation: nil) {
				continuation.yield(read.values())
			}

			continuation.onTermination = { _ in
				observation.invalidate()
			}
		}
	}

	/**
	An element every time any of `keys` changes (and once at the start unless
	`initial` is `false`); read the values you need when it arrives.

	```swift
	let keys: [Defaults._AnyKey] = [.quality, .username]
	for await _ in Defaults.updates(keys) {
		print("quality or username changed")
	}
	```
	*/
	public static func updates(
		_ keys: [_AnyKey],
		initial: Bool = true
	) -> AsyncStream<Void> {
		AsyncStream { continuation in
			let observation = observation(of: keys, options: initial ? [.initial] : [], isolation: nil) {
				continuation.yield()
			}

			continuation.onTermination = { _ in
				observation.invalidate()
			}
		}
	}
}

/// Reads the current values of a pack of keys as one tuple.
private struct TupleReader<each Value: Defaults.Serializable & Sendable>: Sendable {
	let keys: (repeat Defaults.Key<each Value>)

	init(_ keys: repeat Defaults.Key<each Value>) {
		self.keys = (repeat each keys)
	}

	func values() -> (repeat each Value) {
		(repeat Defaults[each keys])
	}
}
