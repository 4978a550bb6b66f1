import Foundation

/**
The backing of a suite without a file: an in-memory suite (nothing to
persist, by design), a Linux suite whose file cannot be determined (no
`HOME`, an escaping name: changes stay in memory), or a suite whose values
Foundation keeps (Apple platforms, where the system's preferences daemon
persists every write). It keeps the suite's size budget itself, measuring
the values as the binary property-list writer encodes them, at the first
write.

<!-- check: internal -->
```swift
let backing = UnfiledBacking(.memoryOnly, values: values, defaults: defaults, displayName: "an unnamed suite")
backing.prepareToAdmit()
```
*/
final class UnfiledBacking: SuiteBacking {
	enum Kind: Sendable {
		/// Nothing to persist, by design.
		case memoryOnly
		/// The file cannot be determined: changes stay in memory, and a flush throws this.
		case unavailable(Defaults.PersistenceError)
		/// Foundation's copy holds the values, and its daemon persists them (Apple platforms).
		case daemon
	}

	let kind: Kind
	private let values: any SuiteValueStore
	// `UserDefaults` is documented as thread-safe, though not marked `Sendable`.
	private nonisolated(unsafe) let defaults: UserDefaults
	private let displayName: String
	/// The size account, measured at the first write.
	let size = Locked(SuiteSizeAccount(budget: .platformDefault, hardLimit: nil))
	/// Migrations take turns within the process: without a file there is no other process to exclude.
	private let migrationTurns = NSLock()

	init(_ kind: Kind, values: any SuiteValueStore, defaults: UserDefaults, displayName: String) {
		self.kind = kind
		self.values = values
		self.defaults = defaults
		self.displayName = displayName
	}

	var sizeBudget: Defaults.SizeBudget {
		get { size.withLock { $0.budget } }
		set { size.withLock { $0.budget = newValue } }
	}

	/// Measures the stored values at the first write, before the values' lock is taken (``admit(_:to:isWithinBudget:)`` runs under it, where they cannot be read).
	func prepareToAdmit() {
		guard size.withLock({ $0.tally == nil }) else {
			return
		}

		let stored = values.storedValues()
		size.withLock { account in
			if account.tally == nil {
				account.measure(stored)
			}
		}
	}

	/**
	Foundation's copy of a domain also changes behind the library's back (raw
	`UserDefaults`, other processes): before it refuses or warns, the account
	measures the domain again, outside its lock (Foundation-backed values call
	this with no lock of ours held).
	*/
	func admit(_ name: String, to value: PropertyListValue?, isWithinBudget: Bool) -> WriteAdmission {
		if isWithinBudget {
			size.withLock { $0.record(name, value) }
			return .accepted(warning: nil, flush: .none)
		}

		var measured: [String: PropertyListValue]?
		if values.changesBehindTheLibrary, size.withLock({ $0.isDecisive(name, value) }) {
			measured = values.storedValues()
		}

		let admission = size.withLock { account in
			if let measured {
				account.measure(measured)
			}

			return account.admit(name, value, suite: displayName)
		}
		switch admission {
		case .refused(let violation):
			return .refused(violation.diagnostic(suite: displayName))
		case .accepted(let warning):
			return .accepted(warning: warning, flush: .none)
		}
	}

	func perform(_ request: FlushPolicy.Action) {}

	func isPending(_ name: String) -> Bool {
		false
	}

	func wouldRefuse(_ name: String, to value: PropertyListValue?) -> Bool {
		prepareToAdmit()
		return size.withLock { $0.refuses(name, value) }
	}

	/**
	Applies the decided changes one by one, as writes would be, all or none
	of them as far as the size budget goes: checked as a whole and counted at
	once before the first is applied (a write racing them is measured with
	all of them), so none is checked again on its own.
	*/
	func commit(_ decide: @escaping SuiteFile.CommitDecision, in suite: Suite) throws(Defaults.PersistenceError) -> [String: PropertyListValue?] {
		var current: [String: PropertyListValue] = [:]
		for name in values.storedNames() {
			current[name] = values.ownObject(forKey: name).flatMap(PropertyListValue.init)
		}

		let changes = decide(current)
		guard !changes.isEmpty else {
			return changes
		}

		let reservation: Int
		let sizeWarning: Defaults.Diagnostic?
		switch reserve(changes) {
		case .refused(let violation):
			throw violation.persistenceError(path: displayName)
		case .reserved(let id, let warning):
			(reservation, sizeWarning) = (id, warning)
		}

		for (name, value) in changes {
			let applied = suite.change(name, to: value?.object, origin: .local, isWithinBudget: true)
			// A change the write refused (nested too deeply, forced) counts as what is stored again.
			let stored = applied ? nil : values.storedObject(forKey: name).flatMap(PropertyListValue.init)
			size.withLock { account in
				account.release(name, of: reservation)
				if !applied {
					account.record(name, stored)
				}
			}
		}

		if let sizeWarning {
			DiagnosticReporter.report(sizeWarning)
		}

		return changes
	}

	/// Checks a commit against the budget as a whole and, if it fits, counts its changes as made at once; Foundation's copy is measured again first when the answer is a refusal or a warning, as for one write.
	private func reserve(_ changes: [String: PropertyListValue?]) -> SuiteSizeAccount.CommitAdmission {
		prepareToAdmit()
		var measured: [String: PropertyListValue]?
		if values.changesBehindTheLibrary, size.withLock({ $0.isDecisive(committing: changes) }) {
			measured = values.storedValues()
		}

		return size.withLock { account in
			if let measured {
				account.measure(measured)
			}

			return account.reserve(changes, suite: displayName)
		}
	}

	func flush() throws(Defaults.PersistenceError) {
		switch kind {
		case .memoryOnly:
			return
		case .unavailable(let error):
			throw error
		case .daemon:
			defaults.synchronize()
		}
	}

	func withMigrationLock<Result>(_ body: () throws(Defaults.MigrationError) -> Result) throws(Defaults.MigrationError) -> Result {
		migrationTurns.lock()
		defer { migrationTurns.unlock() }
		return try body()
	}

	func start() {
		if case .unavailable(let error) = kind {
			DiagnosticReporter.report(.persistenceFailed, key: nil, "changes to this suite stay in memory: \(error)")
		}
	}
}
