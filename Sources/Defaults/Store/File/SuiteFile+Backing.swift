import Foundation

/**
A suite's file as its backing: its state lock keeps the size account and the
pending changes, its inter-process lock orders commits and migrations.

Beside the budget, writes meet the ``FileLimits/maximumFileSize`` limit: a
suite file larger than the library reads back would make every process start
the suite empty, so a write that would cross it is refused (before it changes
anything, or at the flush that would merge it with other processes' writes:
``SuiteFileMerge``), and the values stay as they were.
*/
extension SuiteFile: SuiteBacking {
	var sizeBudget: Defaults.SizeBudget {
		get { state.withLock { $0.size.budget } }
		set { state.withLock { $0.size.budget = newValue } }
	}

	/// The size account is the file's, measured from the file when it was read: nothing to prepare.
	func prepareToAdmit() {}

	/**
	Whether a write of `name` fits the suite's size budget and the file limit,
	decided before anything changes and, if it does, counted and recorded as
	pending, in one turn of the state lock. Exact and cheap: the suite's size
	is kept entry by entry (``SuiteSizeTally``), so a write costs a walk of its
	own value. A commit's changes never come here (``commit(_:in:)`` checks
	them as a whole at the merge), so `isWithinBudget` asks nothing of a file.
	*/
	func admit(_ name: String, to value: PropertyListValue?, isWithinBudget: Bool) -> WriteAdmission {
		let mode = PersistenceSettings.writeMode
		let isForkedChild = ForkDetection.generation != 0
		let (size, flush) = state.withLock { state -> (SuiteSizeAccount.Admission, FlushPolicy.Action) in
			state.measureSizeIfNeeded()
			let size = state.size.admit(name, value, suite: domainName)
			guard case .accepted = size else {
				return (size, .none)
			}

			return (size, state.recordPending(name, to: value, mode: mode, isForkedChild: isForkedChild))
		}
		switch size {
		case .refused(let violation):
			return .refused(violation.diagnostic(suite: domainName))
		case .accepted(let warning):
			return .accepted(warning: warning, flush: flush)
		}
	}

	func wouldRefuse(_ name: String, to value: PropertyListValue?) -> Bool {
		state.withLock { $0.measuredSize().refuses(name, value) }
	}

	/**
	Decides and writes the changes under the inter-process lock, in one
	atomic replace (see ``commit(_:)``); reports the size warning they cross,
	once, and the committed changes to `suite`'s sync link.
	*/
	func commit(_ decide: @escaping CommitDecision, in suite: Suite) throws(Defaults.PersistenceError) -> [String: PropertyListValue?] {
		var previous: [String: PropertyListValue] = [:]
		let committed = try commit { stored in
			let changes = decide(stored)
			previous = [:]
			for name in changes.keys {
				previous[name] = stored[name]
			}

			return changes
		}
		if let warning = state.withLock({ state in
			state.measureSizeIfNeeded()
			return state.size.warning(afterCommitting: committed, over: previous, suite: domainName)
		}) {
			DiagnosticReporter.report(warning)
		}

		for (name, value) in committed {
			suite.syncLink?.recordLocalChange(name, to: value?.object, in: suite)
		}

		return committed
	}

	/// The file's migration lock (``withMigrationLock(waitingUntil:_:)``), waited for up to ``PersistenceSettings/migrationLockTimeout``.
	func withMigrationLock<Result>(_ body: () throws(Defaults.MigrationError) -> Result) throws(Defaults.MigrationError) -> Result {
		let outcome: Swift.Result<Result, Defaults.MigrationError>
		do throws(Defaults.PersistenceError) {
			outcome = try withMigrationLock(waitingUntil: .now + PersistenceSettings.migrationLockTimeout) { () throws(Defaults.PersistenceError) in
				Swift.Result { () throws(Defaults.MigrationError) in try body() }
			}
		} catch {
			throw .persistence(error)
		}

		return try outcome.get()
	}

	/// Flushes at exit and on termination signals, and watches the file, the administrator's files and the global domain.
	func start() {
		suite.administrator?.watch()
		ExitFlush.install()
		TerminationSignalFlush.install()
		FileChangeWatcher.shared.watch(self)
		GlobalDomain.shared.watch()
	}
}
