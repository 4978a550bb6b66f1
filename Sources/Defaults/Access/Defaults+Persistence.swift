import Foundation

extension Defaults {
	/**
	Writes every change the library made to `suite` and returns once it is durable.

	When this returns, the suite's file holds each value written through the
	library before the call, it was replaced atomically, and both the file and
	its folder were synced to disk: the values survive SIGKILL and power loss
	(as far as the disk honours `fsync`). You rarely need it: changes are
	written in the background within ``writeMode``'s window, at normal process
	exit, and when SIGTERM, SIGINT or SIGHUP ends the process. Call it before an
	exit nothing can intercept (`_exit`, `abort`, SIGKILL), or to hand the file
	to another program right away. (`UserDefaults.synchronize()` is not needed
	and does not give this guarantee on Linux.)

	It waits at most about two seconds for another process that holds the
	suite's lock (a stopped `defaults`, a debugger), then throws
	``PersistenceError/lockTimedOut(path:seconds:)``; the changes stay in
	memory and are retried in the background. A FIFO, socket or device at the
	suite's path is never opened: ``PersistenceError/notARegularFile(path:)``.

	It also throws when a change made since the last call did not reach the
	file because, merged with what other processes wrote meanwhile, it would
	have passed the 64 MiB the library reads back
	(``PersistenceError/fileWouldBeTooLarge(path:size:limit:)``) or the suite's
	size budget (``PersistenceError/sizeBudgetExceeded(key:size:budget:)``):
	such a change was refused with a diagnostic, and its key reads the file's
	value again. A key written again since is not counted.

	On Apple platforms this calls `synchronize()`.

	```swift
	extension Defaults.Keys {
		static let lastExport = Key<Date>("lastExport", default: .distantPast)
	}

	Defaults[.lastExport] = Date()
	try Defaults.flush()   // on disk now, not at the next coalesced write
	```
	*/
	public static func flush(suite: UserDefaults = .standard) throws(PersistenceError) {
		try Suite.of(suite).flush()
	}

	/**
	Creates a suite after checking that its name keeps its file in the preferences folder.

	`UserDefaults(suiteName:)` on Linux accepts `"a/b"` (a subfolder) and
	`"../x"` (outside the folder); this throws ``PersistenceError/invalidSuiteName(_:)`` instead.

	```swift
	let shared = try Defaults.suite(named: "com.example.shared")
	```
	*/
	public static func suite(named name: String) throws(PersistenceError) -> UserDefaults {
		try PreferencesLocation.validate(suiteName: name)
		guard let suite = UserDefaults(suiteName: name) else {
			throw .invalidSuiteName(name)
		}

		return suite
	}
}
