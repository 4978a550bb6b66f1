import Foundation
import Synchronization

/**
The secrets of one suite: its secret store (chosen once, ``SecretStoreChoice``),
what each secret key last read or wrote, kept in memory, and which failures
were already reported. A part of ``Suite``, like its values and observers.

A secret key's first read asks the store (bounded by the store, about a
second) and keeps what it found; later reads come from memory. A write goes
to the store first, and to memory only once the store took it: a write the
store refuses leaves nothing anywhere. A read that fails returns the failure;
it is remembered for ``retryInterval``, so a stuck or missing daemon costs
one bounded wait per interval rather than one per read.

A store that can tell when another process changed a secret (the Secret
Service) is asked to, at the suite's first secret access: each time it tells,
every secret this suite holds in memory or has observed is read again
(``refresh()``) and the keys whose value changed are told, as for any change.
A value read again that did not change tells nobody, so the suite's own
writes, which the store also signals, are heard once.

Secrets never enter the suite's values (``SuiteValueStore``): the file, its
pending changes, exports, sync, the `defaults` tool and the configuration
provider all read those, and so never see a secret.

<!-- check: internal -->
```swift
let secrets = suite.secrets
try secrets.change("apiToken", to: .string("s3cr3t"), reporting: false)
print(secrets.read("apiToken", reporting: true)) // success(Optional(string("s3cr3t")))
```
*/
final class SuiteSecrets: Sendable {
	/// How long a failed read is answered from memory before the store is asked again.
	static let retryInterval: Duration = .seconds(5)

	private let choice: SecretStoreChoice
	/// The suite's name in the store's attributes and in diagnostics.
	let suiteName: String
	private let observers: ObserverTable
	private let state = Locked(State())
	/// The version of what memory holds (``StateVersions``), renewed by every change to it and read without the lock: a key's last read of a secret is trusted while it stands.
	private let published = Atomic(StateVersions.next())
	/// Held across a write's store call, so the store and memory take a suite's writes in the same order; each call is bounded by the store. A plain lock, not a `Locked` of no state, on which the thread sanitizer reported a race between two writers that both held it.
	private let writes = NSLock()

	private struct State {
		var store: (any SecretStore)?
		/// What each key holds as far as this process knows: a value, or `nil` for none. A key not here was never read.
		var known: [String: PropertyListValue?] = [:]
		var failures: [String: Failure] = [:]
		/// The reason last reported for each key, so a failure that repeats is reported once.
		var reported: [String: String] = [:]
		/// Counts the writes: a read started before a write must not put back what it found.
		var generation: UInt64 = 0
		/// The keys observers wait on, read again when the store tells of a change even before anything read them.
		var observed: Set<String> = []
		/// Whether the store tells of changes other processes make (asked once, when it is made).
		var hearsChanges = false
	}

	private struct Failure {
		let error: Defaults.SecretError
		let at: ContinuousClock.Instant
	}

	init(choice: SecretStoreChoice, suiteName: String, observers: ObserverTable) {
		self.choice = choice
		self.suiteName = suiteName
		self.observers = observers
	}

	/// The suite's store, made at its first use, when the suite starts hearing changes the store can tell of.
	private func store() -> any SecretStore {
		state.withLock { state in
			if let store = state.store {
				return store
			}

			let store = choice.makeStore()
			state.store = store
			// Under the lock, so no caller sees the store before it is known whether it tells of changes. Registering
			// takes the store's own lock, which is never held while calling back: the callback runs on the store's thread.
			state.hearsChanges = store.hearChanges { [weak self] in
				self?.refresh()
			}
			return store
		}
	}

	/// Replaces the store and forgets what memory holds; the library's own tests only (``Suite/installSecretStore(_:for:)``).
	func replaceStore(with store: any SecretStore) {
		state.withLock { state in
			state = State()
			state.store = store
			published.store(StateVersions.next(), ordering: .releasing)
		}
	}

	private func item(_ name: String) -> SecretItem {
		SecretItem(suite: suiteName, key: name)
	}

	// MARK: Reading

	/**
	What `name` holds: from memory after the first read; a recent failure
	(within ``retryInterval``) without asking again; else from the store.
	`reporting`: a failure is reported as a diagnostic (once per reason), for
	reads whose caller has no error to catch.
	*/
	/// The version of what memory holds now; a read that starts by loading it and finds it unchanged later found the same.
	var currentVersion: UInt64 {
		published.load(ordering: .acquiring)
	}

	func read(_ name: String, reporting: Bool) -> Result<PropertyListValue?, Defaults.SecretError> {
		let remembered = state.withLock { state -> Result<PropertyListValue?, Defaults.SecretError>? in
			if let known = state.known[name] {
				return .success(known)
			}

			// The clock is read only after a failure: a read from memory pays for a lock and a lookup, nothing more.
			if let failure = state.failures[name], ContinuousClock.now - failure.at < Self.retryInterval {
				return .failure(failure.error)
			}

			return nil
		}

		return remembered ?? load(name, reporting: reporting)
	}

	/// Whether memory holds what `name` holds (a value, or none), so a read costs no store call.
	func isKnown(_ name: String) -> Bool {
		state.withLock { $0.known[name] != nil }
	}

	/**
	Asks the store what `name` holds, whatever memory holds, and keeps it.
	When it differs from what memory held (another process changed it), the
	key's observers hear it, after every lock is released; a first read
	changes nothing.
	*/
	func load(_ name: String, reporting: Bool) -> Result<PropertyListValue?, Defaults.SecretError> {
		let generation = state.withLock { $0.generation }
		let found: Result<PropertyListValue?, Defaults.SecretError>
		do {
			if let bytes = try store().secret(for: item(name)) {
				if let value = SecretEncoding.value(of: bytes.data) {
					found = .success(value)
				} else {
					found = .failure(.failed(reason: "the stored secret is not a value the library reads (\(bytes.data.count) bytes)"))
				}
			} else {
				found = .success(nil)
			}
		} catch {
			found = .failure(error)
		}

		let now = ContinuousClock.now
		switch found {
		case .success(let value):
			// After any write in progress: a write that reached the store but not yet memory would otherwise be told twice,
			// once here as a change from elsewhere and once by the write. Waits at most for one bounded store call.
			let (current, previous) = writes.withLock {
				state.withLock { state -> (PropertyListValue?, PropertyListValue??) in
					state.failures[name] = nil
					state.reported[name] = nil
					// A write made meanwhile is newer than what the store answered before it.
					guard state.generation == generation else {
						return (state.known[name] ?? value, nil)
					}

					let previous = state.known.updateValue(value, forKey: name)
					published.store(StateVersions.next(), ordering: .releasing)
					return (value, previous)
				}
			}
			if let previous, previous != current {
				deliver(name, from: previous, to: current)
			}

			return .success(current)
		case .failure(let error):
			let isNew = state.withLock { state in
				state.failures[name] = Failure(error: error, at: now)
				return record("read: \(error)", for: name, in: &state)
			}
			if reporting, isNew {
				report(name, "could not be read, so it reads as its default: \(error)")
			}

			return .failure(error)
		}
	}

	// MARK: Changes from elsewhere

	/**
	Marks `name` as observed: the store's change signals read it again even if
	nothing read it yet. Its value is read once in the background, so the
	first change heard has a value to differ from.
	*/
	func observe(_ name: String) {
		let isNew = state.withLock { $0.observed.insert(name).inserted }
		guard isNew else {
			return
		}

		_ = store()
		guard state.withLock({ $0.hearsChanges && $0.known[name] == nil }) else {
			return
		}

		DispatchQueue.global().async { [self] in
			_ = load(name, reporting: false)
		}
	}

	/**
	Reads again every secret memory holds or observers wait on, after the
	store told that a secret may have changed; ``load(_:reporting:)`` tells
	the observers of each that did. Stops at the first read that finds the
	store unreachable (stopped, gone, locked): the others would only wait as
	long, and memory keeps what it held.
	*/
	func refresh() {
		let names = state.withLock { $0.observed.union($0.known.keys) }
		for name in names.sorted() {
			guard case .failure(let error) = load(name, reporting: false) else {
				continue
			}

			switch error {
			case .timedOut, .unavailable, .locked:
				return
			case .failed, .readOnly:
				continue
			}
		}
	}

	// MARK: Writing

	/**
	Stores `value` for `name` (`nil` removes it), then keeps it in memory and
	tells the key's observers (unless `notifying` is `false`), after every
	lock is released. Throws, keeping nothing, when the store refuses;
	`reporting`: the refusal is reported as a diagnostic too.
	*/
	func change(_ name: String, to value: PropertyListValue?, reporting: Bool, notifying: Bool = true) throws(Defaults.SecretError) {
		let observers = notifying ? observers.observers(of: name) : []
		if observers.contains(where: \.wantsPrior) {
			let prior = RawChange(name: name, oldObject: knownObject(name), newObject: value?.object, isPrior: true)
			for observer in observers where observer.wantsPrior {
				observer.deliver(prior)
			}
		}

		let result = writes.withLock { () -> Result<PropertyListValue?, Defaults.SecretError> in
			do throws(Defaults.SecretError) {
				if let value {
					try store().store(SecretEncoding.bytes(of: value), for: item(name))
				} else {
					try store().remove(item(name))
				}
			} catch {
				return .failure(error)
			}

			return .success(state.withLock { state in
				state.generation &+= 1
				state.failures[name] = nil
				state.reported[name] = nil
				let old = state.known.updateValue(value, forKey: name) ?? nil
				published.store(StateVersions.next(), ordering: .releasing)
				return old
			})
		}

		switch result {
		case .success(let old):
			deliver(name, from: old, to: value, to: observers)
		case .failure(let error):
			let isNew = state.withLock { record("write: \(error)", for: name, in: &$0) }
			if reporting, isNew {
				report(name, "was not \(value == nil ? "removed" : "written"), and is kept nowhere else: \(error)")
			}

			throw error
		}
	}

	/// Tells `observers` (those of the key and of the whole suite) that `name` changed; raw objects, decoded by each key's codec at the edge.
	func deliver(_ name: String, from old: PropertyListValue?, to new: PropertyListValue?, to observers: [ObserverTable.Observer]? = nil) {
		let change = RawChange(name: name, oldObject: old?.object, newObject: new?.object, isPrior: false)
		for observer in observers ?? self.observers.observers(of: name) {
			observer.deliver(change)
		}
	}

	private func knownObject(_ name: String) -> Any? {
		state.withLock { $0.known[name] ?? nil }?.object
	}

	// MARK: Diagnostics

	/// Reports that `name`'s secret does not read as the key's type, once until it reads or fails otherwise.
	func reportOnce(_ name: String, _ reason: String) {
		if state.withLock({ record(reason, for: name, in: &$0) }) {
			report(name, reason)
		}
	}

	/// Remembers `reason` as the last reported for `name`; returns whether it is new (to report).
	private func record(_ reason: String, for name: String, in state: inout State) -> Bool {
		state.reported.updateValue(reason, forKey: name) != reason
	}

	/// One diagnostic naming the key, the suite and the reason: never the value.
	private func report(_ name: String, _ message: String) {
		DiagnosticReporter.report(.secretUnavailable, key: name, suite: suiteName, "the secret \"\(name)\" \(message)")
	}
}
