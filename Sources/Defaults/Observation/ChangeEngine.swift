import Foundation

/// One change to one stored key, as raw stored objects (`nil`: nothing stored).
struct RawChange {
	/// The key's name (whole-suite observers hear every key).
	let name: String
	let oldObject: Any?
	let newObject: Any?
	let isPrior: Bool
}

/// Identifies one observed key: a suite object and a key name.
struct ObservedKey: Hashable, Sendable {
	let suite: Suite
	let name: String

	/**
	Stands for every key of `suite`: an observer registered under it hears each
	change to any key of the suite (a whole-suite reader such as a
	configuration provider). Property lists cannot hold a NUL character, so no
	stored key is called this.
	*/
	static func everyKey(of suite: Suite) -> ObservedKey {
		ObservedKey(suite: suite, name: ObserverTable.everyKeyName)
	}

	static func == (lhs: Self, rhs: Self) -> Bool {
		lhs.suite === rhs.suite && lhs.name == rhs.name
	}

	func hash(into hasher: inout Hasher) {
		hasher.combine(ObjectIdentifier(suite))
		hasher.combine(name)
	}
}

/**
Delivers every change the library makes to the observers of that key.

Observers are kept by their suite object (``ObserverTable``), per key, so a
change costs a lookup plus the observers of that key, however many observe
other keys or other suites. Callbacks run synchronously on the writing thread,
outside every lock: a callback may write other keys, add or remove observers
(itself included) without deadlock.

The engine calls only the library's own `@Sendable` callbacks, never user
code directly. A new kind of subscriber (a publisher, a stream) registers
through an ``ObservationHandle`` with a ``ChangeReceiver``: the handle brings
invalidation and lifetime ties, and ``ObserverDelivery`` runs a user closure
in the isolation it was registered from, in order. A ``RawChange`` holds the
stored objects; turn it into typed values during the callback
(``Defaults/KeyChange/init(_:key:)``) rather than keeping it.
*/
enum ChangeEngine {
	/// A registered callback. `wantsPrior` observers also hear about a change before it is made.
	struct Observer {
		let id: UInt64
		let wantsPrior: Bool
		let deliver: @Sendable (RawChange) -> Void
	}

	/// Set inside ``Defaults/withoutPropagation(_:)``: changes made there reach no observer.
	@TaskLocal static var isPropagationSuppressed = false

	static func add(
		for key: ObservedKey,
		wantsPrior: Bool,
		deliver: @escaping @Sendable (RawChange) -> Void
	) -> UInt64 {
		key.suite.observers.add(for: key.name, wantsPrior: wantsPrior, deliver: deliver)
	}

	static func remove(_ id: UInt64, for key: ObservedKey) {
		key.suite.observers.remove(id, for: key.name)
	}

	/// The observers to tell about a change to `key`, or none when propagation is suppressed.
	static func observers(of key: ObservedKey) -> [Observer] {
		key.suite.observers.observers(of: key.name)
	}

	/// How many observers `key` has (whole-suite observers left out).
	static func observerCount(of key: ObservedKey) -> Int {
		key.suite.observers.count(of: key.name)
	}
}

/**
The observers of one suite, by key name.

Owned by the suite object. A write with nobody observing costs one lookup in
an empty table.
*/
final class ObserverTable: Sendable {
	static let everyKeyName = "\u{0}every key"

	private struct State {
		var observers: [String: [UInt64: ChangeEngine.Observer]] = [:]
		var nextID: UInt64 = 0
	}

	private let state = Locked(State())

	func add(for name: String, wantsPrior: Bool, deliver: @escaping @Sendable (RawChange) -> Void) -> UInt64 {
		state.withLock { state in
			state.nextID += 1
			let observer = ChangeEngine.Observer(id: state.nextID, wantsPrior: wantsPrior, deliver: deliver)
			state.observers[name, default: [:]][observer.id] = observer
			return observer.id
		}
	}

	func remove(_ id: UInt64, for name: String) {
		state.withLock { state in
			state.observers[name]?[id] = nil
			if state.observers[name]?.isEmpty == true {
				state.observers[name] = nil
			}
		}
	}

	/// The observers of `name` and of every key, or none when propagation is suppressed.
	func observers(of name: String) -> [ChangeEngine.Observer] {
		let observers = state.withLock { state -> [ChangeEngine.Observer] in
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
		return observers.isEmpty || ChangeEngine.isPropagationSuppressed ? [] : observers
	}

	func count(of name: String) -> Int {
		state.withLock { $0.observers[name]?.count ?? 0 }
	}
}
