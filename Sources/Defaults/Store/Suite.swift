import Foundation
import Synchronization

/**
Everything the library keeps about one suite, in one object, and the only way
into it.

Its values (``SuiteValueStore``), the file that makes them durable
(``SuiteFile``, Linux only), its secret keys' values (``SuiteSecrets``, never
among the values), its observers (``ObserverTable``), its sync link
(``SuiteSyncLink``) and sync ledger (``SyncLedger``), its migration lock and
which undecodable values were already reported. There
is one per stored domain: two `UserDefaults(suiteName: "x")` objects share it,
so each hears the other's writes. The API edge finds it once with ``of(_:)``
(keys remember it: ``Defaults/_AnyKey/processWideSuite``) and calls it; its parts
know it from their creation and never look it up. Inside an isolated test
(``SuiteIsolation``) the edge gets the test's in-memory copy instead.

<!-- check: internal -->
```swift
let suite = Suite.of(defaults)
suite.change("volume", to: 0.8, origin: .local)
let volume = suite.values.entry(forKey: "volume")?.object
```

Each part has its own lock, held only inside that part's methods. Locks nest
in one order: the file's flush lock, the inter-process file lock, the values
lock, the backing's own lock (the file's state lock, or an unfiled backing's
size account: a write's admission and pending change are recorded under the
values lock); the observer table's lock is never held with the
values lock. No user code runs under any of them.
*/
package final class Suite: Sendable {
	let identity: SuiteIdentity
	let values: any SuiteValueStore
	let observers = ObserverTable()
	/// The values of the suite's secret keys: its secret store, chosen once here, and what it last read; never in `values`.
	let secrets: SuiteSecrets

	/// The `UserDefaults` the suite was first found through: Foundation's copy of the domain, kept in step at each flush.
	// `UserDefaults` is documented as thread-safe, though not marked `Sendable`.
	nonisolated(unsafe) let defaults: UserDefaults

	/// How the suite's changes become durable, chosen when the suite is made; replaced only by tests (``install(_:)``).
	private let persistence: Locked<any SuiteBacking>
	/// The administrator's layers of the suite's domain (Linux, suites with a file); set once, while the suite is made.
	private let administratorLayers = Locked<AdministratorLayers?>(nil)
	private let sync = Locked(SyncAttachment())
	/// Whether a synchroniser was ever linked: writes to a suite nobody syncs read it, and take no lock for the link.
	private let mayHaveSyncLink = Atomic(false)
	private let reportedUndecodable = Locked<[String: Int]>([:])

	private struct SyncAttachment {
		weak var link: (any SuiteSyncLink)?
		var ledger: SyncLedger?
	}

	/// A suite without a file: its changes stay in memory, or (`.daemon`) Foundation's copy persists them.
	init(identity: SuiteIdentity, defaults: UserDefaults, values: any SuiteValueStore, unfiled kind: UnfiledBacking.Kind) {
		self.identity = identity
		self.defaults = defaults
		self.values = values
		registersWithFoundation = values is OwnedSuiteValues
		// Read once: every message about the suite names it alike, even if the process renames itself later.
		displayName = identity.displayName
		secrets = SuiteSecrets(choice: SecretStoreChoice(for: identity), suiteName: displayName, observers: observers)
		self.persistence = Locked(UnfiledBacking(kind, values: values, defaults: defaults, displayName: displayName))
	}

	/**
	A suite whose values the library owns, kept in the file at `url` (Linux):
	its values start from what the file holds.
	*/
	convenience init(
		identity: SuiteIdentity,
		defaults: UserDefaults,
		fileAt url: URL,
		domainName: String,
		fileSystem: any PreferencesFileSystem,
		arguments: [String: Any],
		global: [String: PropertyListValue]
	) {
		let values = OwnedSuiteValues(stored: [:], arguments: arguments, global: global)
		// In memory for as long as it takes to read the file, which needs the suite it belongs to.
		self.init(identity: identity, defaults: defaults, values: values, unfiled: .memoryOnly)
		administratorLayers.withLock { $0 = AdministratorLayers(domain: domainName, suite: self, values: values) }
		let file = SuiteFile(url: url, domainName: domainName, suite: self, fileSystem: fileSystem, startingValues: values)
		persistence.withLock { $0 = file }
	}

	/// Whether a registered default is also registered with Foundation's copy, for raw readers: Foundation does it itself when it is the store.
	let registersWithFoundation: Bool

	/// How messages name the suite: its domain, or what stands for it (its file's name, for a suite with a file).
	let displayName: String

	// MARK: Persistence

	/// What keeps the suite's changes: every question whose answer depends on it goes to it.
	var backing: any SuiteBacking {
		persistence.withLock { $0 }
	}

	/// The suite's file, for what only a file has (its path, flushes at exit): Linux, a nameable suite, a usable preferences folder.
	var file: SuiteFile? {
		backing as? SuiteFile
	}

	/// Replaces the suite's backing; tests only (``install(_:)``).
	func replaceBacking(with replacement: any SuiteBacking) {
		persistence.withLock { $0 = replacement }
	}

	/// Writes the suite's pending changes durably; throws why they cannot be.
	func flush() throws(Defaults.PersistenceError) {
		try backing.flush()
	}

	/// The suite's size budget (``Defaults/SizeBudget``), kept by its backing.
	var sizeBudget: Defaults.SizeBudget {
		get { backing.sizeBudget }
		set { backing.sizeBudget = newValue }
	}

	/// The forced values and system-wide defaults an administrator manages for the suite's domain, when the suite has a file.
	var administrator: AdministratorLayers? {
		administratorLayers.withLock { $0 }
	}

	// MARK: Sync

	/// Where the suite reports each local change: the synchroniser that syncs keys of it, if any.
	var syncLink: (any SuiteSyncLink)? {
		get {
			guard mayHaveSyncLink.load(ordering: .acquiring) else {
				return nil
			}

			return sync.withLock { $0.link }
		}
		set {
			if newValue != nil {
				mayHaveSyncLink.store(true, ordering: .releasing)
			}

			sync.withLock { $0.link = newValue }
		}
	}

	/// The timestamps of this device's last changes of the suite's synced keys, read from the ledger's file at first use.
	var syncLedger: SyncLedger {
		if let ledger = sync.withLock({ $0.ledger }) {
			return ledger
		}

		// Read outside the lock; should two threads race here, the first stored wins (neither has recorded anything yet).
		let read = SyncLedger(for: self)
		return sync.withLock { state in
			if let ledger = state.ledger {
				return ledger
			}

			state.ledger = read
			return read
		}
	}

	// MARK: Diagnostics

	/**
	Whether `stored` is a new undecodable value for `key`, remembering it as
	reported: a value that fails on every read is reported once, and again when
	it changes to another value that does not decode either.
	*/
	func isNewUndecodable(_ stored: Any, key: String) -> Bool {
		let fingerprint = Self.fingerprint(of: stored)
		return reportedUndecodable.withLock { reported in
			guard reported[key] != fingerprint else {
				return false
			}

			reported[key] = fingerprint
			return true
		}
	}

	private static func fingerprint(of stored: Any) -> Int {
		var hasher = Hasher()
		hasher.combine(String(describing: type(of: stored)))
		if let value = PropertyListValue(stored) {
			hasher.combine(value)
		} else {
			hasher.combine(String(describing: stored))
		}

		return hasher.finalize()
	}
}

