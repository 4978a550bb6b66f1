import Foundation

/**
How the store makes a suite's changes durable.

On Linux that is ``SuiteFile``; on Apple platforms there is none, because the
system's preferences daemon already persists every write.
*/
protocol SuitePersistence: AnyObject, Sendable {
	/// Notes that the library changed `name` to `object` (`nil`: removed) and schedules a flush.
	func record(_ name: String, object: Any?)

	/// Writes every change recorded so far; returns once it is durable.
	func flush() throws(Defaults.PersistenceError)
}

/**
One suite's file: the changes this process made that are not on disk yet,
and the file's contents as last seen.

A flush takes the suite's inter-process lock, re-reads the file, applies only
this process's changed keys (so writers of different keys never lose each
other's), replaces the file atomically as a binary property list, and hands
any keys other processes changed since the last look to the change engine.
*/
final class SuiteFile: SuitePersistence, ExternalChangeListener, @unchecked Sendable {
	private struct Pending {
		let value: PropertyListValue?
		let generation: UInt64
	}

	/// A key another process changed: its value in the file before and after.
	struct ExternalChange {
		let old: PropertyListValue?
		let new: PropertyListValue?
	}

	/// What a flush found, delivered once every lock is released: user code (observers, diagnostic handlers) may write and flush again.
	private struct Outcome {
		var external: [String: ExternalChange] = [:]
		var diagnostics: [Defaults.Diagnostic] = []
	}

	private struct State {
		/// A forked child starts with none: its parent's pending changes are the parent's to write.
		@ForkLocal var pending: [String: Pending] = [:]
		var generation: UInt64 = 0
		var lastKnown: [String: PropertyListValue] = [:]
		/// The version of the file `lastKnown` was read from or written as.
		var lastKnownIdentity: FileIdentity?
		var isFlushScheduled = false
		/// How long the last write of the file took; large suites wait longer between writes.
		var lastWriteDuration: DispatchTimeInterval = .never
		/// The wait before the next retry while flushes fail; `nil` after a success.
		var retryDelay: Duration?
	}

	let url: URL
	let domainName: String
	private let suite: UserDefaults
	private let fileSystem: any PreferencesFileSystem
	private let state = Locked(State())

	/// Serializes this process's flushes and reloads of the file.
	private let fileLock = NSLock()

	init(url: URL, domainName: String, suite: UserDefaults, fileSystem: any PreferencesFileSystem) {
		self.url = url
		self.domainName = domainName
		self.suite = suite
		self.fileSystem = fileSystem
		let identity = fileSystem.identity(of: url)
		let data: Data?
		do {
			data = try fileSystem.read(url)
		} catch {
			data = nil
			if case .notARegularFile = error {
				setAsideSpecialFile()
			}
		}

		if case .contents(let contents) = SuiteFileContents.decode(data) {
			state.withLock { state in
				state.lastKnown = contents
				state.lastKnownIdentity = identity
			}
		}
	}

	/**
	A FIFO, socket or device at the suite's path is never opened by the
	library, but Foundation's own `UserDefaults` reads would block on it
	forever: it is moved aside (kept for the user), so the suite starts empty.
	*/
	private func setAsideSpecialFile() {
		var message = "\(url.path) is not a regular file (a FIFO, socket or device) and was never opened"
		do {
			let aside = try fileSystem.moveUnreadableAside(url)
			message += "; moved aside to \(aside.path), the suite starts empty"
		} catch {
			message += "; it could not be moved aside (\(error)), so this suite is not written"
		}

		DiagnosticReporter.report(.unreadableFile, key: nil, message)
	}

	var hasPendingChanges: Bool {
		state.withLock { !$0.pending.isEmpty }
	}

	/// The names of the keys changed here and not written yet, sorted.
	var pendingNames: [String] {
		state.withLock { $0.pending.keys.sorted() }
	}

	func record(_ name: String, object: Any?) {
		let value = object.flatMap(PropertyListValue.init)
		let mode = PersistenceSettings.writeMode
		let (shouldSchedule, lastWriteDuration) = state.withLock { state in
			state.generation += 1
			state.pending[name] = Pending(value: value, generation: state.generation)
			guard case .coalesced = mode, !state.isFlushScheduled else {
				return (false, state.lastWriteDuration)
			}

			state.isFlushScheduled = true
			return (true, state.lastWriteDuration)
		}

		switch mode {
		case .writeThrough:
			flushReportingFailure()
		case .coalesced(let milliseconds):
			if shouldSchedule {
				scheduleFlush(after: PersistenceSettings.coalescingDelay(milliseconds: milliseconds, lastWriteDuration: lastWriteDuration))
			}
		}
	}

	/// Flushes after `delay` on the persistence queue; a suite replaced meanwhile (by a test) is not flushed.
	private func scheduleFlush(after delay: DispatchTimeInterval) {
		PersistenceSettings.queue.asyncAfter(deadline: .now() + delay) { [weak self] in
			guard let self else {
				return
			}

			state.withLock { $0.isFlushScheduled = false }
			flushReportingFailure()
		}
	}

	func flushReportingFailure() {
		do {
			try flush()
		} catch {
			let retry = scheduleRetry()
			let when = retry.map { "in \($0 / .seconds(1)) s and " } ?? ""
			DiagnosticReporter.report(
				.persistenceFailed,
				key: nil,
				"suite '\(domainName)': \(error); the changes stay in memory and are retried \(when)on the next write or flush"
			)
		}
	}

	/// Schedules another attempt while changes are pending, waiting longer after each failure; returns the wait.
	private func scheduleRetry() -> Duration? {
		let delay = state.withLock { state -> Duration? in
			guard !state.pending.isEmpty, !state.isFlushScheduled else {
				return nil
			}

			let delay = state.retryDelay.map { min($0 * 2, PersistenceSettings.retryDelays.last) } ?? PersistenceSettings.retryDelays.first
			state.retryDelay = delay
			state.isFlushScheduled = true
			return delay
		}

		if let delay {
			scheduleFlush(after: .milliseconds(Int(delay / .milliseconds(1))))
		}

		return delay
	}

	func flush() throws(Defaults.PersistenceError) {
		try flush(waitingUntil: nil)
	}

	/**
	Writes the pending changes, waiting for this process's other flushes and
	for other processes' locks until `deadline` at most (`nil`: as long as
	another flush of this process may take, then ``PersistenceSettings/lockTimeout``
	for other processes).

	Diagnostics and other processes' changes found on the way are delivered
	after every lock is released, so a diagnostic handler or an observer may
	write and flush again.
	*/
	func flush(waitingUntil deadline: ContinuousClock.Instant?) throws(Defaults.PersistenceError) {
		let start = ContinuousClock.now
		// Another flush of this process waits for busy live holders up to five times the timeout.
		let lockDeadline = deadline ?? start + PersistenceSettings.lockTimeout * 5
		// A termination signal's flush needs these locks: this thread must not be parked by it while holding them.
		let outcome = try TerminationSignalFlush.withSignalsDeferred { () throws(Defaults.PersistenceError) -> Outcome in
			guard fileLock.lock(before: Date() + max(.zero, lockDeadline - start).timeInterval) else {
				// Another thread's flush of this suite is still waiting for another process's lock.
				throw .lockTimedOut(path: url.path, seconds: ((.now - start) / .milliseconds(100)).rounded() / 10)
			}

			defer { fileLock.unlock() }
			return try writePending(waitingUntil: deadline ?? .now + PersistenceSettings.lockTimeout)
		}

		state.withLock { $0.retryDelay = nil }
		deliver(outcome)
	}

	/// Re-reads the file after another process changed it and delivers what changed.
	func fileDidChange() {
		fileLock.lock()
		let identity = fileSystem.identity(of: url)
		guard
			identity != state.withLock({ $0.lastKnownIdentity }),
			let contents = contentsAfterExternalChange(identity: identity)
		else {
			fileLock.unlock()
			return
		}

		let external = state.withLock { state in
			defer {
				state.lastKnown = contents
				state.lastKnownIdentity = identity
			}

			return externalChanges(from: state.lastKnown, to: contents, excluding: Set(state.pending.keys))
		}

		fileLock.unlock()
		deliver(Outcome(external: external))
	}

	/**
	The file's values after another process changed it, or `nil` when they
	cannot be known (it does not parse, or reading failed).

	A deleted file (`rm`, `defaults delete`) holds no values: every key it held
	changes to absent. Only a file that is really gone counts as deleted; a
	read error must not be mistaken for one, or the next flush would write the
	suite back without its keys.
	*/
	private func contentsAfterExternalChange(identity: FileIdentity?) -> [String: PropertyListValue]? {
		let data: Data?
		do {
			data = try fileSystem.read(url)
		} catch {
			return nil
		}

		switch SuiteFileContents.decode(data) {
		case .missing:
			return identity == nil ? [:] : nil
		case .contents(let contents):
			return contents
		case .unreadable:
			return nil
		}
	}

	/// Applies the pending changes to the file; returns the keys other processes changed meanwhile and what to report.
	private func writePending(waitingUntil deadline: ContinuousClock.Instant) throws(Defaults.PersistenceError) -> Outcome {
		// A copy made under the lock: the dictionary's storage is never shared with a thread that records meanwhile.
		let pending = state.withLock { state in
			state.pending.map { (name: $0.key, change: $0.value) }
		}
		guard !pending.isEmpty else {
			return Outcome()
		}

		return try fileSystem.withExclusiveLock(for: url, waitingUntil: deadline) { () throws(Defaults.PersistenceError) in
			fileSystem.removeAbandonedTemporaries(of: url)
			var outcome = Outcome()
			var onDisk: [String: PropertyListValue]
			var mustRewrite = false
			let identity = fileSystem.identity(of: url)
			let (lastKnown, lastKnownIdentity) = state.withLock { ($0.lastKnown, $0.lastKnownIdentity) }
			if identity != nil, identity == lastKnownIdentity {
				// Nobody replaced the file since this process last read or wrote it.
				onDisk = lastKnown
			} else {
				switch SuiteFileContents.decode(try fileSystem.read(url)) {
				case .missing:
					onDisk = [:]
				case .contents(let contents):
					onDisk = contents
				case .unreadable(let data):
					let recovered = try recoverFromUnreadableFile(data)
					onDisk = recovered.contents
					outcome.diagnostics.append(recovered.diagnostic)
					mustRewrite = true
				}
			}

			var contents = onDisk
			for (name, change) in pending {
				contents[name] = change.value
			}

			var newIdentity = identity
			var writeDuration: DispatchTimeInterval?
			if mustRewrite || contents != onDisk {
				let start = DispatchTime.now()
				try fileSystem.replaceAtomically(url, with: try SuiteFileContents.encode(contents))
				newIdentity = fileSystem.identity(of: url)
				writeDuration = .nanoseconds(Int(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds))
			}

			let written = Set(pending.map(\.name))
			outcome.external = state.withLock { state in
				for (name, change) in pending where state.pending[name]?.generation == change.generation {
					state.pending[name] = nil
				}

				let external = externalChanges(from: state.lastKnown, to: onDisk, excluding: written)
				state.lastKnown = contents
				state.lastKnownIdentity = newIdentity
				state.lastWriteDuration = writeDuration ?? state.lastWriteDuration
				return external
			}
			return outcome
		}
	}

	/**
	A file that does not parse is never silently replaced: it is moved aside
	with a timestamped name, and the suite continues from what this process
	holds in memory. The diagnostic is returned, to be reported once the locks are released.
	*/
	private func recoverFromUnreadableFile(
		_ data: Data
	) throws(Defaults.PersistenceError) -> (contents: [String: PropertyListValue], diagnostic: Defaults.Diagnostic) {
		var message = "the file \(url.path) is not a readable property list (\(data.count) bytes)"
		if !data.isEmpty {
			let aside = try fileSystem.moveUnreadableAside(url)
			message += "; moved aside to \(aside.path)"
		}

		let diagnostic = Defaults.Diagnostic(kind: .unreadableFile, key: nil, message: message + "; rewriting it from the values in memory")
		let inMemory = suite.persistentDomain(forName: domainName) ?? [:]
		return (inMemory.compactMapValues(PropertyListValue.init), diagnostic)
	}

	/// What other processes changed between two readings of the file, leaving out keys this process is about to write.
	private func externalChanges(
		from old: [String: PropertyListValue],
		to new: [String: PropertyListValue],
		excluding pending: Set<String>
	) -> [String: ExternalChange] {
		var changes: [String: ExternalChange] = [:]
		for name in SuiteFileContents.changedKeys(from: old, to: new) where !pending.contains(name) {
			changes[name] = ExternalChange(old: old[name], new: new[name])
		}

		return changes
	}

	private func deliver(_ outcome: Outcome) {
		for diagnostic in outcome.diagnostics {
			DiagnosticReporter.report(diagnostic)
		}

		for (name, change) in outcome.external {
			Store.applyExternalChange(name, from: change.old?.object, to: change.new?.object, in: suite)
		}
	}
}

extension Duration {
	/// The duration in seconds, for `Date` arithmetic.
	var timeInterval: TimeInterval {
		self / .seconds(1)
	}
}
