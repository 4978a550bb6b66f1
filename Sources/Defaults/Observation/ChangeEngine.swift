import Foundation

/// One change to one stored key, as raw stored objects (`nil`: nothing stored).
struct RawChange {
	let oldObject: Any?
	let newObject: Any?
	let isPrior: Bool
}

/// Identifies one observed key: a stored domain and a key name.
struct ObservedKey: Hashable, Sendable {
	let suite: SuiteIdentity
	let name: String

	/**
	Stands for every key of `suite`: an observer registered under it hears each
	change to any key of the suite (a whole-suite reader such as a
	configuration provider). Property lists cannot hold a NUL character, so no
	stored key is called this.
	*/
	static func everyKey(of suite: SuiteIdentity) -> ObservedKey {
		ObservedKey(suite: suite, name: "\u{0}every key")
	}
}

/**
Delivers every change the library makes to the observers of that key.

Observers are stored per key, so a change costs a lookup plus the observers
of that key, however many observe other keys. Callbacks run synchronously on
the writing thread, outside the lock: a callback may write other keys, add or
remove observers (itself included) without deadlock.

The engine calls only the library's own `@Sendable` callbacks, never user
code directly. A new kind of subscriber (a publisher, a stream) registers
through an ``ObservationHandle`` with a ``ChangeReceiver``: the handle brings
invalidation and lifetime ties, and ``ObserverDelivery`` runs a user closure
in the isolation it was registered from, in order. A ``RawChange`` holds the
stored objects as Foundation returned them; turn it into typed values during
the callback (``Defaults/KeyChange/init(_:key:)``) rather than keeping it.
*/
enum ChangeEngine {
	/// A registered callback. `wantsPrior` observers also hear about a change before it is made.
	struct Observer {
		let id: UInt64
		let wantsPrior: Bool
		let deliver: @Sendable (RawChange) -> Void
	}

	private struct State {
		var observers: [ObservedKey: [UInt64: Observer]] = [:]
		var nextID: UInt64 = 0
	}

	private static let state = Locked<State>(State())

	/// Set inside ``Defaults/withoutPropagation(_:)``: changes made there reach no observer.
	@TaskLocal static var isPropagationSuppressed = false

	static func add(
		for key: ObservedKey,
		wantsPrior: Bool,
		deliver: @escaping @Sendable (RawChange) -> Void
	) -> UInt64 {
		state.withLock { state in
			state.nextID += 1
			let observer = Observer(id: state.nextID, wantsPrior: wantsPrior, deliver: deliver)
			state.observers[key, default: [:]][observer.id] = observer
			return observer.id
		}
	}

	static func remove(_ id: UInt64, for key: ObservedKey) {
		state.withLock { state in
			state.observers[key]?[id] = nil
			if state.observers[key]?.isEmpty == true {
				state.observers[key] = nil
			}
		}
	}

	/// The observers to tell about a change to `key`, or none when propagation is suppressed.
	static func observers(of key: ObservedKey) -> [Observer] {
		if isPropagationSuppressed {
			return []
		}

		let everyKey = ObservedKey.everyKey(of: key.suite)
		return state.withLock { state in
			Array(state.observers[key, default: [:]].values) + Array(state.observers[everyKey, default: [:]].values)
		}
	}

	/// Whether anything observes `key`; the write path skips reading the old value when nothing does.
	static func observerCount(of key: ObservedKey) -> Int {
		state.withLock { $0.observers[key]?.count ?? 0 }
	}
}
