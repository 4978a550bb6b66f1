import Foundation

/**
What the library's other modules (the `DefaultsConfiguration` provider) read
and observe of a suite: the values that configure it as `Sendable` trees,
read at once, and a callback after each change. Registered and global
defaults are left out.

<!-- check: internal -->
```swift
let suite = Suite.of(UserDefaults(suiteName: "com.example.service")!)
let timeout = suite.configuredValue(forKey: "timeout")
let observation = suite.observe(["timeout"]) { print("changed") }
```
*/
extension Suite {
	/**
	Every value that configures the suite — an administrator's forced value,
	a launch argument, the stored value, an administrator's system-wide
	default, by precedence — read at once: a write made by another thread
	lands either wholly before or wholly after this read, never halfway.
	Values that are not property lists are left out.
	*/
	package func configuredValues() -> [String: PropertyListValue] {
		values.configuredValues()
	}

	/// The value that configures `name`, as ``configuredValues()`` reads it; `nil` when it has none or it is not a property list.
	package func configuredValue(forKey name: String) -> PropertyListValue? {
		values.configuredObject(forKey: name).flatMap(PropertyListValue.init)
	}

	/// The suite's own value for `name` (stored, or a launch argument); `nil` when it has none or it is not a property list.
	package func ownValue(forKey name: String) -> PropertyListValue? {
		values.ownObject(forKey: name).flatMap(PropertyListValue.init)
	}

	/**
	Calls `handler` after each change to one of `names`, or to any key of the
	suite when `names` is `nil`, until the returned observation is invalidated
	or released. It hears every write path the typed observers hear: the
	library's writes, resets, `removeAll`, sync pulls, and other processes'
	writes to the suite's file.

	The handler runs synchronously on the thread that made the change (the
	watcher's thread for another process's change), after the change is
	applied and outside every lock of the library: reading the suite from it
	sees the new value.
	*/
	package func observe(_ names: [String]?, handler: @escaping @Sendable () -> Void) -> any Defaults.Observation & Sendable {
		let keys = names.map { $0.map { ObservedKey(suite: self, name: $0) } } ?? [.everyKey(of: self)]
		return ObservationHandle(keys: keys, wantsPrior: false, receiver: CallbackReceiver(callback: handler))
	}
}

/// Hands every change to one library callback; nothing is queued, so stopping has nothing to drop.
private struct CallbackReceiver: ChangeReceiver {
	let callback: @Sendable () -> Void

	func receive(_ change: RawChange) {
		callback()
	}

	func stop() {}
}
