import Foundation

extension Defaults {
	/**
	Resets keys to their default values by removing what is stored.

	```swift
	Defaults.reset(.quality, .isUnicornMode)
	```
	*/
	public static func reset(_ keys: _AnyKey...) {
		reset(keys)
	}

	/**
	Resets keys to their default values; useful when the keys are in a collection.

	```swift
	let keys: [Defaults._AnyKey] = [.quality, .isUnicornMode]
	Defaults.reset(keys)
	```
	*/
	public static func reset(_ keys: [_AnyKey]) {
		for key in keys {
			key.reset()
		}
	}

	/**
	Resets typed keys of different value types to their default values.

	```swift
	Defaults.reset(Defaults.Keys.quality, Defaults.Keys.username)   // a Double key and a String? key
	```
	*/
	public static func reset<each Value: Serializable>(_ keys: repeat Key<each Value>) {
		repeat (each keys).reset()
	}

	/**
	Resets the keys with the given names in `suite`.

	```swift
	Defaults.reset("quality", "username")
	```
	*/
	public static func reset(_ names: String..., suite: UserDefaults = .standard) {
		reset(names, suite: suite)
	}

	/**
	Resets the keys with the given names in `suite`; useful when the names are in a collection.

	```swift
	let names = ["quality", "username"]
	Defaults.reset(names, suite: UserDefaults(suiteName: "com.example.shared")!)
	```
	*/
	public static func reset(_ names: [String], suite: UserDefaults = .standard) {
		let suiteObject = Suite.of(suite)
		for name in names {
			suiteObject.change(name, to: nil, origin: .local)
		}
	}

	/**
	Removes every value stored in `suite`. Registered defaults stay, so keys read their defaults.

	```swift
	Defaults.removeAll(suite: UserDefaults(suiteName: "com.example.app")!)
	```
	*/
	public static func removeAll(suite: UserDefaults = .standard) {
		Suite.of(suite).removeAll()
	}
}
