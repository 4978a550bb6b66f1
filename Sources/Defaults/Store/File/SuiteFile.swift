import Foundation

/**
One suite's file: the changes this process made that are not on disk yet,
and the file's contents as last seen.

A flush takes the suite's inter-process lock, re-reads the file, applies only
this process's changed keys (so writers of different keys never lose each
other's), replaces the file atomically as a binary property list (one
``LockedReplace``), and applies any keys other processes changed since the
last look to the suite's values, telling their observers once every lock is
released.

This file holds the flush's entry points. When to flush is ``FlushPolicy``'s
decision; the write under the lock (`SuiteFile+Write`) reads the file, merges
(``SuiteFileMerge``, no I/O), replaces and records; what the flush does
around the replace has files of its own: the write prepared ahead of the lock
(`SuiteFile+WriteAhead`), the file as the suite's backing (admission, size
limit, commit: `SuiteFile+Backing`), files that do not read (`SuiteFile+Recovery`),
Foundation's copy of the suite (`SuiteFile+Foundation`) and what other
processes wrote (`SuiteFile+ExternalChanges`).
*/
final class SuiteFile: FileChangeListener, @unchecked Sendable {
	/// What a flush found, delivered once every lock is released: user code (observers, diagnostic handlers) may write and flush again.
	struct Outcome {
		/// The keys other processes changed, with their new values (`nil`: removed).
		var external: [String: PropertyListValue?] = [:]
		var diagnostics: [Defaults.Diagnostic] = []
		/// The changes a commit made, written with the pending ones (`nil`: removed).
		var committed: [String: PropertyListValue?] = [:]
		/// This process's changes the merge with other processes' writes refused (reported, and their values back to the file's), and why.
		var refused: (names: [String], error: Defaults.PersistenceError)?
		/// The external and committed changes, applied to the suite's values (while the file lock was held), for their observers.
		var notifications: [ChangeNotification] = []
	}

	/**
	Decides, under the inter-process lock, what a commit changes, given the
	suite's stored values as they are now (the file with this process's
	pending changes): each name's new value, `nil` to remove it. Library code
	only: it runs under every lock of the suite.
	*/
	typealias CommitDecision = ([String: PropertyListValue]) -> [String: PropertyListValue?]

	struct State {
		/// The changes not written yet, and when to write them.
		var flush = FlushPolicy()
		var lastKnown = KnownFileContents()
		/// The version of the file `lastKnown` was read from or written as.
		var lastKnownVersion = FileVersion(identity: nil, contents: nil)
		/**
		The keys other processes changed since Foundation's copy of the suite was
		last made to read the file again (the end of this process's last write
		of it), as this process saw them: one changed and changed back (A-B-A)
		still counts. A raw write Foundation has not saved yet was made after
		that (see `SuiteFile+Foundation`).
		*/
		var changedSinceBaseline: Set<String> = []
		/**
		Whether Foundation's copy may be older than the file the library first
		read: until this process first writes the file, a raw read or write
		made before the library touched the suite may have loaded it, and the
		file changed after this process started.
		*/
		var foundationMayPredateTheFile = true
		/**
		The budget, and the exact size of the file `lastKnown` with the pending
		changes would make, measured at its first use (``measuredSize()``): a
		process that only reads a suite never keeps an entry per name for it.
		*/
		var size = SuiteSizeAccount(budget: .platformDefault, hardLimit: FileLimits.maximumFileSize)
		/// The unreadable file last set aside: one copy of the same failure per burst.
		var lastSetAside: SetAside?
		/**
		Changes refused at a merge since ``SuiteFile/flush()`` last returned, and
		why: that call promises the file holds every earlier write, so the next
		one throws, unless each refused key was written again since.
		*/
		var refusedSinceFlush: (names: Set<String>, error: Defaults.PersistenceError)?

		/// The size account, measured first from `lastKnown` and the pending changes if nothing measured it yet.
		mutating func measuredSize() -> SuiteSizeAccount {
			measureSizeIfNeeded()
			return size
		}

		/// Measures the size account from `lastKnown` and the pending changes, unless it has been measured since the file was first read.
		mutating func measureSizeIfNeeded() {
			guard size.tally == nil else {
				return
			}

			var contents = lastKnown.keepAsValues()
			for (name, change) in flush.pending {
				contents[name] = change.value
			}

			size.measure(contents)
		}

		/**
		Notes that the library changed `name` to `value` (`nil`: removed), under
		the suite's values lock, so the pending change is in step with the
		value; returns what ``SuiteFile/perform(_:)`` must do once that lock is
		released. A refused change written again no longer fails the next flush.
		*/
		mutating func recordPending(_ name: String, to value: PropertyListValue?, mode: Defaults.WriteMode, isForkedChild: Bool) -> FlushPolicy.Action {
			if refusedSinceFlush != nil {
				refusedSinceFlush?.names.remove(name)
				if refusedSinceFlush?.names.isEmpty == true {
					refusedSinceFlush = nil
				}
			}

			return flush.recordChange(name, to: value, mode: mode, isForkedChild: isForkedChild)
		}
	}

	let url: URL
	let domainName: String
	/// The suite this is the file of: it outlives the file (suites with a file are never released).
	unowned let suite: Suite
	let fileSystem: any PreferencesFileSystem
	let state = Locked(State())

	/// Serializes this process's flushes and reloads of the file.
	let fileLock = ForkLocalLock()

	/**
	Where this suite's scheduled flushes run: a queue of its own, since a
	flush may wait up to ``FileLimits/lockTimeout`` for another process's
	lock, and one suite's held lock must hold up no other suite's writes (a
	queue shared by every suite did; a concurrent one ran out of threads on a
	small machine when several flushes waited).
	*/
	private let flushQueue: DispatchQueue

	/**
	Reads the file; `suite` is still being made, and is not called until the
	file is running. `startingValues`, the suite's values when they are new,
	start from what the file holds.
	*/
	init(url: URL, domainName: String, suite: Suite, fileSystem: any PreferencesFileSystem, startingValues values: OwnedSuiteValues? = nil) {
		self.url = url
		self.domainName = domainName
		self.suite = suite
		self.fileSystem = fileSystem
		flushQueue = DispatchQueue(label: "Defaults.persistence.\(domainName)", qos: .utility)
		let identity = fileSystem.identity(of: url)
		do {
			let data = try fileSystem.read(url)
			// Decoded straight into the values: no table of the file's contents is made only to be copied, and none is kept.
			if let data, let values, values.startStored(building: { PropertyListFileContents.decodeDictionary(data, $0) }) {
				startFrom(KnownFileContents(bytes: data), data: data, identity: identity)
				return
			}

			switch PropertyListFileContents.decode(data) {
			case .contents(let contents):
				values?.startStored(from: contents)
				startFrom(KnownFileContents(contents), data: data, identity: identity)
			case .unreadable:
				reportUnreadableAtStart(startingValues: values)
			case .missing, .tooLarge:
				break
			}
		} catch .fileTooLarge(_, let size, let limit) {
			setAsideUnopened(because: PropertyListFileContents.Reading.tooLarge(size: size, limit: limit).problem ?? "")
		} catch .notARegularFile {
			setAsideUnopened(because: "is not a regular file (a FIFO, socket or device) and was never opened")
		} catch {}
	}

	/// Takes the file as first read: what this process knows of it, and what Foundation's copy starts from.
	func startFrom(_ contents: KnownFileContents, data: Data?, identity: FileIdentity?) {
		state.withLock { state in
			state.lastKnown = contents
			state.lastKnownVersion = FileVersion(identity: identity, contents: data)
			state.foundationMayPredateTheFile = identity.map { ProcessStart.mayHaveStartedBefore($0.modified) } ?? true
			state.size.forgetMeasurement()
		}
	}

	var hasPendingChanges: Bool {
		state.withLock { !$0.flush.pending.isEmpty }
	}

	/// The names of the keys changed here and not written yet, sorted.
	var pendingNames: [String] {
		state.withLock { $0.flush.pending.keys.sorted() }
	}

	/// Whether `name` has a change of this process's that is not written yet.
	func isPending(_ name: String) -> Bool {
		state.withLock { $0.flush.pending[name] != nil }
	}

	/// Carries out what recording a pending change asked for, once the suite's values lock is released.
	func perform(_ request: FlushPolicy.Action) {
		switch request {
		case .none:
			return
		case .schedule(let delay):
			scheduleFlush(after: delay)
		case .now:
			flushReportingFailure()
		}
	}

	/// Flushes after `delay` on the suite's flush queue; a suite replaced meanwhile (by a test) is not flushed.
	private func scheduleFlush(after delay: Duration) {
		flushQueue.asyncAfter(deadline: .now() + delay.dispatchInterval) { [weak self] in
			guard let self else {
				return
			}

			perform(state.withLock { $0.flush.timerFired() })
		}
	}

	func flushReportingFailure() {
		do {
			try flush(waitingUntil: nil)
		} catch {
			let isForkedChild = ForkDetection.generation != 0
			let retry = state.withLock { $0.flush.flushFailed(isForkedChild: isForkedChild) }
			var when = ""
			if case .schedule(let delay) = retry {
				scheduleFlush(after: delay)
				when = "in \(delay / .seconds(1)) s and "
			}

			DiagnosticReporter.report(
				.persistenceFailed,
				key: nil,
				"suite '\(domainName)': \(error); the changes stay in memory and are retried \(when)on the next write or flush"
			)
		}
	}

	/**
	Writes the pending changes, then throws when a change made since the last
	call did not reach the file: the merge with other processes' writes refused
	it (already reported, its value back to the file's).
	*/
	func flush() throws(Defaults.PersistenceError) {
		try flush(waitingUntil: nil)
		let refused = state.withLock { state in
			defer { state.refusedSinceFlush = nil }
			return state.refusedSinceFlush
		}
		if let refused {
			throw refused.error
		}
	}

	/**
	Writes the pending changes, waiting for this process's other flushes and
	for other processes' locks until `deadline` at most (`nil`: as long as
	another flush of this process may take, then ``FileLimits/lockTimeout``
	for other processes).

	Diagnostics and other processes' changes found on the way are delivered
	after every lock is released, so a diagnostic handler or an observer may
	write and flush again.
	*/
	func flush(waitingUntil deadline: ContinuousClock.Instant?) throws(Defaults.PersistenceError) {
		let start = ContinuousClock.now
		// Another flush of this process waits for busy live holders up to five times the timeout.
		let lockDeadline = deadline ?? start + FileLimits.lockTimeout * 5
		// A termination signal's flush needs these locks: this thread must not be parked by it while holding them.
		let outcome = try TerminationSignals.deferred { () throws(Defaults.PersistenceError) -> Outcome in
			guard fileLock.lock(before: Date() + max(.zero, lockDeadline - start).timeInterval) else {
				// Another thread's flush of this suite is still waiting for another process's lock.
				throw .lockTimedOut(path: url.path, seconds: ((.now - start) / .milliseconds(100)).rounded() / 10)
			}

			defer { fileLock.unlock() }
			var outcome = try writePending(waitingUntil: deadline ?? .now + FileLimits.lockTimeout, committing: nil)
			applyToValues(&outcome)
			return outcome
		}

		recordSuccess(of: outcome)
		deliver(outcome)
	}

	/// A flush or commit went through: the policy hears it, and what the merge refused waits for ``flush()`` to throw it.
	private func recordSuccess(of outcome: Outcome) {
		state.withLock { state in
			state.flush.flushSucceeded()
			if let refused = outcome.refused {
				state.refusedSinceFlush = (Set(refused.names).union(state.refusedSinceFlush?.names ?? []), refused.error)
			}
		}
	}

	/**
	Changes several keys as one step: under the inter-process lock, `decide`
	sees the suite's stored values as they are now and returns the changes,
	which are written in the same atomic replace as this process's pending
	changes. Other processes see all of them or none; a process killed before
	the replace leaves the file as it was. Observers hear each change once the
	file is written and every lock released. Returns the changes made.
	*/
	func commit(_ decide: @escaping CommitDecision) throws(Defaults.PersistenceError) -> [String: PropertyListValue?] {
		let start = ContinuousClock.now
		let outcome = try TerminationSignals.deferred { () throws(Defaults.PersistenceError) -> Outcome in
			guard fileLock.lock(before: Date() + (FileLimits.lockTimeout * 5).timeInterval) else {
				throw .lockTimedOut(path: url.path, seconds: ((.now - start) / .milliseconds(100)).rounded() / 10)
			}

			defer { fileLock.unlock() }
			var outcome = try writePending(waitingUntil: .now + FileLimits.lockTimeout, committing: decide)
			applyToValues(&outcome)
			return outcome
		}

		recordSuccess(of: outcome)
		deliver(outcome)
		return outcome.committed
	}

	/**
	Runs `body` holding the suite's migration lock, an inter-process lock of
	its own (`.NAME.plist.migration.lock`): migrations of one suite never run
	in two processes or threads at once, while reads, writes and flushes go
	on (they take the file's lock, which `body` holds only while it commits).
	Waits until `deadline` at most.
	*/
	func withMigrationLock<Result>(
		waitingUntil deadline: ContinuousClock.Instant,
		_ body: () throws(Defaults.PersistenceError) -> Result
	) throws(Defaults.PersistenceError) -> Result {
		try fileSystem.withExclusiveLock(for: SideFileNames.migrationLockTarget(of: url), waitingUntil: deadline, body)
	}

	/**
	Applies what other processes changed, and what a commit changed, to the
	suite's values; call with
	`fileLock` held, so that whoever takes the lock next (a flush returning to
	its caller) finds the values already up to date.
	*/
	func applyToValues(_ outcome: inout Outcome) {
		let changes = outcome.external.merging(outcome.committed) { _, committed in committed }
		guard !changes.isEmpty else {
			return
		}

		outcome.notifications = suite.applyExternalChanges(changes.mapValues { $0?.object })
	}

	/// Reports and notifies what a flush or a look at the file found, once every lock is released.
	func deliver(_ outcome: Outcome) {
		for diagnostic in outcome.diagnostics {
			DiagnosticReporter.report(diagnostic)
		}

		// Refusals first: the stamps of refused values are forgotten before any save can take them for stored ones.
		if let refused = outcome.refused?.names, !refused.isEmpty {
			suite.syncLink?.valuesRefused(refused, in: suite)
		}

		// Even when this flush stored nothing: another thread's flush may have written this one's changes and still be
		// saving their stamps, and a process flushing before it exits must not leave them unsaved.
		suite.syncLink?.flushEnded(in: suite)

		for notification in outcome.notifications {
			notification.deliver()
		}
	}
}
