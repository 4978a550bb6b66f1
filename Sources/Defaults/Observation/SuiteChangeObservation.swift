import Foundation

/**
Change notifications for readers outside the core that read raw stored values
rather than typed keys (the `DefaultsConfiguration` provider).

They hear every write path the typed observers hear: the library's own
writes, resets, `removeAll`, sync pulls, and other processes' writes to the
suite's file (`defaults write` among them), which the suite is watched for from
the first call.
*/
package enum SuiteChangeObservation {
	/// Starts watching `suite`'s file, so that reads see other processes' writes even before anything observes it.
	package static func watchForExternalChanges(_ suite: UserDefaults) {
		Persistence.attach(suite)
	}

	/**
	Calls `handler` after each change to one of `names` in `suite`, or to any
	key of it when `names` is `nil`, until the returned observation is
	invalidated or released.

	The handler runs synchronously on the thread that made the change (the
	watcher's thread for another process's change), after the change is
	applied and outside every lock of the library: reading the suite from it
	sees the new value.
	*/
	package static func observe(
		_ names: [String]?,
		in suite: UserDefaults,
		handler: @escaping @Sendable () -> Void
	) -> any Defaults.Observation & Sendable {
		watchForExternalChanges(suite)
		let suiteObject = Suite.of(suite)
		let keys = names.map { $0.map { ObservedKey(suite: suiteObject, name: $0) } } ?? [.everyKey(of: suiteObject)]
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
