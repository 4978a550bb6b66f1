import Foundation

/**
A property that reads and writes a `Defaults` key, usable in any class, struct or actor.

Reading the property reads the store; assigning writes through it (so
observers hear the change and the value is stored like any other write). The
projected value (`$property`) is the wrapper itself, with `reset()`,
`isDefaultValue`, `observe` and `updates`.

```swift
extension Defaults.Keys {
	static let volume = Key<Double>("volume", default: 0.5)
}

final class Player {
	@Default(.volume) var volume

	func mute() {
		volume = 0
	}

	func restore() {
		$volume.reset()
	}
}
```
*/
@propertyWrapper
public struct Default<Value: Defaults.Serializable>: Sendable {
	/// The key this property reads and writes.
	public let key: Defaults.Key<Value>

	/**
	Binds the property to `key`.

	```swift
	struct Player {
		@Default(.volume) var volume
	}
	```
	*/
	public init(_ key: Defaults.Key<Value>) {
		self.key = key
	}

	/// The key's current value; assigning stores a new one.
	public var wrappedValue: Value {
		get { Defaults[key] }
		nonmutating set { Defaults[key] = newValue }
	}

	/// The wrapper itself: `$volume.reset()`, `$volume.isDefaultValue`, `$volume.observe { … }`.
	public var projectedValue: Self { self }

	/**
	Resets the key to its default value.

	```swift
	struct Player {
		@Default(.volume) var volume

		func restoreVolume() {
			$volume.reset()   // or _volume.reset()
		}
	}
	```
	*/
	public func reset() {
		key.reset()
	}

	/**
	Observes the key; see ``Defaults/observe(_:options:isolation:handler:)``,
	including where the handler runs: on the caller's actor, or on the writing
	thread when called from nonisolated code.

	```swift
	struct Player {
		@Default(.volume) var volume

		func watchVolume() -> some Defaults.Observation {
			$volume.observe { change in print(change.newValue) }
		}
	}
	```
	*/
	public func observe(
		options: Defaults.ObservationOptions = [.initial],
		isolation: isolated (any Actor)? = #isolation,
		handler: @escaping (Defaults.KeyChange<Value>) -> Void
	) -> some Defaults.Observation {
		Defaults.observe(key, options: options, isolation: isolation, handler: handler)
	}
}

extension Default where Value: Equatable {
	/**
	Whether the key currently reads its default value.

	```swift
	struct Player {
		@Default(.volume) var volume

		var showsResetButton: Bool { !$volume.isDefaultValue }
	}
	```
	*/
	public var isDefaultValue: Bool {
		key.isDefaultValue
	}
}

extension Default where Value: Sendable {
	/**
	The key's values as an asynchronous sequence; see ``Defaults/updates(_:initial:)->AsyncStream<Value>``.

	```swift
	struct Player {
		@Default(.volume) var volume

		func followVolume() async {
			for await volume in $volume.updates() {
				print("volume is now \(volume)")
			}
		}
	}
	```
	*/
	public func updates(initial: Bool = true) -> AsyncStream<Value> {
		Defaults.updates(key, initial: initial)
	}
}
