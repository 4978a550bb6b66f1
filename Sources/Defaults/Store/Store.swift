import Foundation

/**
The single gateway through which the library touches a suite's values.

Every read, write, removal and registration the library performs goes through
here to the suite's object (``Suite``), and nothing else in the library
changes a suite's values. That is what lets observation, persistence, sync and
caching see every change by hooking one place. Values arriving here are
already property-list objects: the serialization layer made sure of it.
*/
enum Store {
	/// What a read of `name` finds (stored, argument, global or registered), with its version.
	static func entry(forKey name: String, in suite: Suite) -> SuiteEntry? {
		suite.values.entry(forKey: name)
	}

	/// What a raw read of `name` returns, by the library's precedence.
	static func object(forKey name: String, in suite: UserDefaults) -> Any? {
		Suite.of(suite).values.entry(forKey: name)?.object
	}

	/**
	The suite's own value for `name`, leaving registered and global defaults
	out: one stored in the suite, or given as a launch argument; `nil` when
	there is none.
	*/
	static func storedObject(forKey name: String, in suite: UserDefaults) -> Any? {
		Suite.of(suite).values.ownObject(forKey: name)
	}

	/// Whether the suite has a value of its own for `name` (see ``storedObject(forKey:in:)``).
	static func hasValue(forKey name: String, in suite: UserDefaults) -> Bool {
		storedObject(forKey: name, in: suite) != nil
	}

	static func set(_ object: Any, forKey name: String, in suite: Suite) {
		suite.change(name, to: object, origin: .local)
	}

	static func removeObject(forKey name: String, in suite: Suite) {
		suite.change(name, to: nil, origin: .local)
	}

	static func set(_ object: Any, forKey name: String, in suite: UserDefaults) {
		set(object, forKey: name, in: Suite.of(suite))
	}

	static func removeObject(forKey name: String, in suite: UserDefaults) {
		removeObject(forKey: name, in: Suite.of(suite))
	}

	/// Removes every value stored in `suite`, telling each key's observers; registered defaults stay.
	static func removeAll(in suite: UserDefaults) {
		Suite.of(suite).removeAll()
	}

	/**
	Applies a change that came from the sync remote: persisted and observed like
	a local write, but not reported back to the synchroniser as a local change.
	*/
	static func applySyncedChange(_ name: String, to object: Any?, in suite: UserDefaults) {
		Suite.of(suite).change(name, to: object, origin: .synced)
	}

	static func register(_ object: Any, forKey name: String, in suite: Suite) {
		suite.register(object, forKey: name)
	}
}
