import Foundation
import Synchronization

/**
The observers of one suite, by key name: how every change the library makes
reaches the observers of that key.

Owned by the suite object (``Suite/observers``), so a change costs a lookup
plus the observers of that key, however many observe other keys or other
suites; a write with nobody observing costs one lookup in an empty table.
Callbacks run synchronously on the writing thread, outside every lock: a
callback may write other keys, add or remove observers (itself included)
without deadlock.

The table calls only the library's own `@Sendable` callbacks, never user code
directly. A new kind of subscriber (a publisher, a stream) registers through
an ``ObservationHandle`` with a ``ChangeReceiver``: the handle brings
invalidation and lifetime ties, and ``ObserverDelivery`` runs a user closure
in the isolation it was registered from, in order. A ``RawChange`` holds the
stored objects; turn it into typed values during the callback
(``Defaults/KeyChange/init(_:key:)``) rather than keeping it.

<!-- check: internal -->
```swift
let id = suite.observers.add(for: "volume", wantsPrior: false) { change in
	print(change.newObject ?? "removed")
}
suite.observers.remove(id, for: "volume")
```
*/
final class ObserverTable: Sendable {
	/// A registered callback. `wantsPrior` observers also hear about a change before it is made.
	struct Observer {
		let id: UInt64
		let wantsPrior: Bool
		let deliver: @Sendable (RawChange) -> Void
	}

	/// Set inside ``Defaults/withoutPropagation(_:)``: changes made there reach no observer.
	@TaskLocal static var isPropagationSuppressed = false

	static let everyKeyName = "\u{0}every key"

	private struct State {
		var observers: [String: [UInt64: Observer]] = [:]
		var nextID: UInt64 = 0
	}

	private let state = Locked(State())
	/// How many names have observers, kept under the lock and read without it: a write nobody observes takes no lock here.
	private let observedNames = Atomic<Int>(0)

	func add(for name: String, wantsPrior: Bool, deliver: @escaping @Sendable (RawChange) -> Void) -> UInt64 {
		state.withLock { state in
			state.nextID += 1
			let observer = Observer(id: state.nextID, wantsPrior: wantsPrior, deliver: deliver)
			state.observers[name, default: [:]][observer.id] = observer
			observedNames.store(state.observers.count, ordering: .releasing)
			return observer.id
		}
	}

	func remove(_ id: UInt64, for name: String) {
		state.withLock { state in
			state.observers[name]?[id] = nil
			if state.observers[name]?.isEmpty == true {
				state.observers[name] = nil
			}

			observedNames.store(state.observers.count, ordering: .releasing)
		}
	}

	/// The observers of `name` and of every key, or none when propagation is suppressed.
	func observers(of name: String) -> [Observer] {
		// An observer added before this call, on this thread or before a synchronisation with it, is counted here.
		guard observedNames.load(ordering: .acquiring) != 0 else {
			return []
		}

		let observers = state.withLock { state -> [Observer] in
			guard !state.observers.isEmpty else {
				return []
			}

			let keyObservers = Array(state.observers[name, default: [:]].values)
			// The library's own bookkeeping (the migration version) is no key of the user's.
			guard !KeyName.isReserved(name) else {
				return keyObservers
			}

			return keyObservers + Array(state.observers[Self.everyKeyName, default: [:]].values)
		}

		// The task-local is read only when someone observes: writes nobody observes skip it.
		return observers.isEmpty || Self.isPropagationSuppressed ? [] : observers
	}

	/// How many observers `name` has (whole-suite observers left out).
	func count(of name: String) -> Int {
		state.withLock { $0.observers[name]?.count ?? 0 }
	}
}
