import Foundation

/**
One suite's file: the changes this process made that are not on disk yet,
and the file's contents as last seen.

A flush takes the suite's inter-process lock, re-reads the file, applies only
this process's changed keys (so writers of different keys never lose each
other's), replaces the file atomically as a binary property list, and hands
any keys other processes changed since the last look to the change engine.
*/
final class SuiteFile: FileChangeListener, @unchecked Sendable {
	/// What a flush found, delivered once every lock is released: user code (observers, diagnostic handlers) may write and flush again.
	private struct Outcome {
		/// The keys other processes changed, with their new values (`nil`: removed).
		var external: [String: PropertyListValue?] = [:]
		var diagnostics: [Defaults.Diagnostic] = []
		/// The changes a commit made, written with the pending ones (`nil`: removed).
		var committed: [String: PropertyListValue?] = [:]
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

	private struct SetAside {
		/// A digest of the bytes, not the bytes: a burst of failures must not hold copies of the file in memory.
		let bytes: Int
		let at: ContinuousClock.Instant

		init(bytes: Data?, at: ContinuousClock.Instant) {
			self.bytes = bytes.map(FileVersion.digest) ?? 0
			self.at = at
		}
	}

	private struct State {
		/// The changes not written yet, and when to write them.
		var flush = FlushPolicy()
		var lastKnown: [String: PropertyListValue] = [:]
		/// The version of the file `lastKnown` was read from or written as.
		var lastKnownVersion = FileVersion(identity: nil, contents: nil)
		/**
		The file as it was when Foundation's copy of the suite was last made to
		read it again (the end of this process's last write of the file): a raw
		write Foundation has not saved yet was made after that.
		*/
		var foundationBaseline: [String: PropertyListValue] = [:]
		/// The keys other processes changed since then, as this process saw them: one changed and changed back (A-B-A) still counts.
		var changedSinceBaseline: Set<String> = []
		/// About the size of the file `lastKnown` with the pending changes would make: exact after each read or write, adjusted by each write since.
		var sizeEstimate: Int64 = 0
		/// The unreadable file last set aside: one copy of the same failure per burst.
		var lastSetAside: SetAside?
	}

	let url: URL
	let domainName: String
	/// The suite this is the file of: it outlives the file (suites with a file are never released).
	private unowned let suite: Suite
	private let fileSystem: any PreferencesFileSystem
	private let state = Locked(State())

	/// Serializes this process's flushes and reloads of the file.
	private let fileLock = ForkLocalLock()

	/// Reads the file; `suite` is still being made, and is not called until the file is running.
	init(url: URL, domainName: String, suite: Suite, fileSystem: any PreferencesFileSystem) {
		self.url = url
		self.domainName = domainName
		self.suite = suite
		self.fileSystem = fileSystem
		let identity = fileSystem.identity(of: url)
		do {
			let (reading, data) = try fileSystem.reading(url)
			switch reading {
			case .contents(let contents):
				startFrom(contents, data: data, identity: identity)
			case .tooLarge:
				setAsideUnopened(because: reading.problem ?? "")
			case .unreadable:
				reportUnreadableAtStart()
			case .missing:
				break
			}
		} catch .notARegularFile {
			setAsideUnopened(because: "is not a regular file (a FIFO, socket or device) and was never opened")
		} catch {}
	}

	/// Takes the file as first read: what this process knows of it, and what Foundation's copy starts from.
	private func startFrom(_ contents: [String: PropertyListValue], data: Data?, identity: FileIdentity?) {
		state.withLock { state in
			state.lastKnown = contents
			state.lastKnownVersion = FileVersion(identity: identity, contents: data)
			state.foundationBaseline = contents
			state.sizeEstimate = Int64(data?.count ?? 0)
		}
	}

	/**
	A process that only reads a suite whose file does not parse would see
	every default without a word: it is told once, when it first uses the
	suite. The file is left where it is (a program rewriting it in place is
	waited for first); the first write of this process sets it aside.
	*/
	private func reportUnreadableAtStart() {
		guard let (reading, data, identity) = try? readSettled(fileSystem.identity(of: url)) else {
			return
		}

		switch reading {
		case .contents(let contents):
			// Another program was rewriting it in place, and has finished.
			startFrom(contents, data: data, identity: identity)
		case .unreadable(let data) where !data.isEmpty:
			DiagnosticReporter.report(
				.unreadableFile,
				key: nil,
				"\(url.path) \(reading.problem ?? ""); suite '\(domainName)' reads as if nothing were stored until the file is readable again, and the first write of this process sets the file aside"
			)
		case .missing, .unreadable, .tooLarge:
			break
		}
	}

	/**
	A FIFO, socket or device at the suite's path is never opened by the
	library, and a file too large for a preferences file is never read, but
	Foundation's own `UserDefaults` reads would block on the one and exhaust
	memory on the other: it is moved aside (kept for the user), so the suite
	starts empty.
	*/
	private func setAsideUnopened(because reason: String) {
		var message = "\(url.path) \(reason)"
		do {
			let aside = try fileSystem.moveUnreadableAside(url)
			message += "; moved aside to \(aside.path), the suite starts empty"
		} catch {
			message += "; it could not be moved aside (\(error)), so this suite is not written"
		}

		DiagnosticReporter.report(.unreadableFile, key: nil, message)
	}

	var hasPendingChanges: Bool {
		state.withLock { !$0.flush.pending.isEmpty }
	}

	/// The names of the keys changed here and not written yet, sorted.
	var pendingNames: [String] {
		state.withLock { $0.flush.pending.keys.sorted() }
	}

	/// The file's contents as last read or written.
	var lastKnownContents: [String: PropertyListValue] {
		state.withLock { $0.lastKnown }
	}

	/// Whether `name` has a change of this process's that is not written yet.
	func isPending(_ name: String) -> Bool {
		state.withLock { $0.flush.pending[name] != nil }
	}

	/// What to do once a change is recorded, after the suite's lock is released.
	typealias FlushRequest = FlushPolicy.Action

	/**
	Notes that the library changed `name` to `value` (`nil`: removed). Runs
	under the suite's values lock, so the pending change is in step with the
	value; returns what ``perform(_:)`` must do once that lock is released.
	*/
	func recordPending(_ name: String, value: PropertyListValue?) -> FlushRequest {
		let mode = PersistenceSettings.writeMode
		let isForkedChild = ForkDetection.generation != 0
		return state.withLock { state in
			state.flush.recordChange(name, to: value, mode: mode, isForkedChild: isForkedChild)
		}
	}

	func perform(_ request: FlushRequest) {
		switch request {
		case .none:
			return
		case .schedule(let delay):
			scheduleFlush(after: delay)
		case .now:
			flushReportingFailure()
		}
	}

	/// Flushes after `delay` on the persistence queue; a suite replaced meanwhile (by a test) is not flushed.
	private func scheduleFlush(after delay: Duration) {
		PersistenceSettings.queue.asyncAfter(deadline: .now() + delay.dispatchInterval) { [weak self] in
			guard let self else {
				return
			}

			perform(state.withLock { $0.flush.timerFired() })
		}
	}

	func flushReportingFailure() {
		do {
			try flush()
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
			var outcome = try writePending(waitingUntil: deadline ?? .now + PersistenceSettings.lockTimeout, committing: nil)
			applyToValues(&outcome)
			return outcome
		}

		state.withLock { $0.flush.flushSucceeded() }
		deliver(outcome)
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
		let outcome = try TerminationSignalFlush.withSignalsDeferred { () throws(Defaults.PersistenceError) -> Outcome in
			guard fileLock.lock(before: Date() + (PersistenceSettings.lockTimeout * 5).timeInterval) else {
				throw .lockTimedOut(path: url.path, seconds: ((.now - start) / .milliseconds(100)).rounded() / 10)
			}

			defer { fileLock.unlock() }
			var outcome = try writePending(waitingUntil: .now + PersistenceSettings.lockTimeout, committing: decide)
			applyToValues(&outcome)
			return outcome
		}

		state.withLock { $0.flush.flushSucceeded() }
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

	/// Re-reads the file after another process changed it and delivers what changed.
	func fileDidChange() {
		fileLock.lock()
		var outcome = changesSinceLastLook()
		applyToValues(&outcome)
		fileLock.unlock()
		deliver(outcome)
	}

	/// What other processes changed in the file since this process last read or wrote it; call with `fileLock` held.
	private func changesSinceLastLook() -> Outcome {
		let identity = fileSystem.identity(of: url)
		let version = state.withLock { $0.lastKnownVersion }
		guard
			!((try? version.isCurrent(identity) { () throws(Defaults.PersistenceError) in try fileSystem.read(url) }) ?? false),
			let (contents, data) = contentsAfterExternalChange(identity: identity)
		else {
			return Outcome()
		}

		let external = state.withLock { state in
			defer {
				state.lastKnown = contents
				state.lastKnownVersion = FileVersion(identity: identity, contents: data)
				state.sizeEstimate = Int64(data?.count ?? 0)
			}

			state.changedSinceBaseline.formUnion(SuiteFileContents.changedKeys(from: state.lastKnown, to: contents))
			return externalChanges(from: state.lastKnown, to: contents, excluding: Set(state.flush.pending.keys))
		}

		return Outcome(external: external)
	}

	/**
	The file's values after another process changed it, or `nil` when they
	cannot be known (it does not parse, or reading failed).

	A deleted file (`rm`, `defaults delete`) holds no values: every key it held
	changes to absent. Only a file that is really gone counts as deleted; a
	read error must not be mistaken for one, or the next flush would write the
	suite back without its keys.
	*/
	private func contentsAfterExternalChange(identity: FileIdentity?) -> (contents: [String: PropertyListValue], data: Data?)? {
		let data: Data?
		do {
			data = try fileSystem.read(url)
		} catch {
			return nil
		}

		switch SuiteFileContents.decode(data) {
		case .missing:
			return identity == nil ? ([:], nil) : nil
		case .contents(let contents):
			return (contents, data)
		case .unreadable, .tooLarge:
			return nil
		}
	}

	/**
	Applies the pending changes to the file, with what `commit` decides, in
	one ``LockedReplace``; returns the keys other processes changed
	meanwhile, the committed changes and what to report.
	*/
	private func writePending(waitingUntil deadline: ContinuousClock.Instant, committing commit: CommitDecision?) throws(Defaults.PersistenceError) -> Outcome {
		// A copy made under the lock: the dictionary's storage is never shared with a thread that records meanwhile.
		let pending = state.withLock { $0.flush.changesToWrite }
		guard !pending.isEmpty || commit != nil else {
			// Nothing to write: a flush still brings in what others wrote (raw `synchronize()` in this process among them).
			return changesSinceLastLook()
		}

		// Other processes wait for the lock while it is held: the new file is encoded, written and synced before.
		let ahead = commit == nil ? writeAhead(applying: pending) : nil
		var isAheadRenamed = false
		defer {
			if let replacement = ahead?.replacement, !isAheadRenamed {
				fileSystem.discardReplacement(replacement)
			}
		}

		return try fileSystem.replacingContents(of: url, waitingUntil: deadline) { file throws(Defaults.PersistenceError) in
			var outcome = Outcome()
			var onDisk: [String: PropertyListValue]
			var mustRewrite = false
			let identity = file.identity
			let (foundationBaseline, changedSinceBaseline, lastLooked) = state.withLock { ($0.foundationBaseline, $0.changedSinceBaseline, $0.lastKnown) }
			let (lastKnown, lastKnownVersion) = ahead?.base ?? state.withLock { ($0.lastKnown, $0.lastKnownVersion) }
			var version = lastKnownVersion
			var isAsWrittenAhead = false
			if identity != nil, try lastKnownVersion.isCurrent(identity, contents: file.data) {
				// Nobody wrote the file since this process last read or wrote it (or, for a write ahead, since it was read for it).
				onDisk = lastKnown
				isAsWrittenAhead = ahead != nil
			} else {
				let (reading, data, settledIdentity) = try readSettled(identity)
				version = FileVersion(identity: settledIdentity, contents: data)
				switch reading {
				case .missing:
					onDisk = [:]
				case .contents(let contents):
					onDisk = contents
				case .unreadable, .tooLarge:
					let recovered = try recoverFromUnreadableFile(reading)
					onDisk = recovered.contents
					outcome.diagnostics.append(recovered.diagnostic)
					mustRewrite = true
				}
			}

			var contents = onDisk
			if isAsWrittenAhead, let ahead {
				contents = ahead.contents
			} else {
				for (name, change) in pending {
					contents[name] = change.value
				}
			}

			if let commit {
				outcome.committed = commit(contents)
				for (name, value) in outcome.committed {
					contents[name] = value
				}
			}

			// A write ahead was measured when it was encoded; a commit's too large result is thrown to its caller.
			var refused: [String] = []
			if commit == nil, !isAsWrittenAhead, SuiteFileContents.encodedSize(contents) > PersistenceSettings.maximumFileSize {
				refused = refuseTooLarge(pending, contents: &contents, onDisk: onDisk, diagnostics: &outcome.diagnostics)
			}

			let written = Set(pending.map(\.name)).union(outcome.committed.keys)
			// The file lock is held: nobody changed what this process last saw of the file since `lastLooked` was read.
			let changedByOthers = SuiteFileContents.changedKeys(from: lastLooked, to: onDisk)
			var writeDuration: Duration?
			var final = contents
			var didWrite = false
			if isAsWrittenAhead ? ahead?.replacement != nil : mustRewrite || contents != onDisk {
				let start = DispatchTime.now()
				if isAsWrittenAhead, let ahead, let replacement = ahead.replacement {
					version = try file.replace(with: replacement, digest: ahead.digest)
					isAheadRenamed = true
				} else {
					version = try file.replace(with: contents)
				}

				writeDuration = .nanoseconds(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds + (ahead?.nanoseconds ?? 0))
				let inStep = try keepFoundationInStep(
					file,
					written: version,
					contents: contents,
					writtenByTheLibrary: written
						.union(SuiteFileContents.changedKeys(from: foundationBaseline, to: contents))
						.union(changedSinceBaseline)
						.union(changedByOthers)
				)
				didWrite = true
				final = inStep.contents ?? contents
				version = inStep.version
				outcome.diagnostics += inStep.diagnostics
			}

			let finalSize = SuiteFileContents.encodedSize(final)
			outcome.external = state.withLock { state in
				state.flush.wrote(pending, taking: writeDuration)

				var external = externalChanges(changedByOthers.subtracting(written), in: onDisk)
				external.merge(externalChanges(from: contents, to: final, excluding: written)) { _, later in later }
				for name in refused {
					// Back to the file's value, once no newer write of this process is pending.
					external[name] = .some(final[name])
				}
				state.lastKnown = final
				state.lastKnownVersion = version
				if didWrite {
					state.foundationBaseline = final
					state.changedSinceBaseline = []
				} else {
					state.changedSinceBaseline.formUnion(changedByOthers)
				}
				state.sizeEstimate = finalSize
				return external
			}
			return outcome
		}
	}

	/**
	Refuses this flush's changes when, merged with what other processes wrote,
	they would make a file larger than the library reads back: the file stays
	as it is, and the values go back to the file's. Returns the names refused.
	*/
	private func refuseTooLarge(
		_ pending: [(name: String, change: FlushPolicy.Change)],
		contents: inout [String: PropertyListValue],
		onDisk: [String: PropertyListValue],
		diagnostics: inout [Defaults.Diagnostic]
	) -> [String] {
		let size = SuiteFileContents.encodedSize(contents)
		let refused = pending.map(\.name).filter { contents[$0] != onDisk[$0] }.sorted()
		for name in refused {
			contents[name] = onDisk[name]
		}

		let limit = PersistenceSettings.maximumFileSize
		diagnostics.append(Defaults.Diagnostic(
			kind: .fileSizeLimitExceeded,
			key: refused.count == 1 ? refused[0] : nil,
			message: "suite '\(domainName)': writing \(refused.joined(separator: ", ")) with what other processes stored would make \(url.path) \(size) bytes, more than the \(limit / 1024 / 1024) MiB the library reads back; the changes were refused, and the values are the file's again"
		))
		return refused
	}

	/**
	Refuses a write that would make the file larger than the library reads
	back (every process would then start the suite empty), before anything
	changes; called under the suite's values lock, before ``recordPending(_:value:)``.
	Cheap while the suite is well under the limit: the change's own size is
	measured, and the whole suite only near the limit.
	*/
	func refusal(ofSetting name: String, to value: PropertyListValue?) -> Defaults.Diagnostic? {
		let limit = PersistenceSettings.maximumFileSize
		return state.withLock { state -> Defaults.Diagnostic? in
			let old = state.flush.pending[name].map(\.value) ?? state.lastKnown[name]
			let growth = Self.entrySize(name, value) - Self.entrySize(name, old)
			var estimate = state.sizeEstimate + growth
			if growth > 0, estimate > limit - limit / 8 {
				var prospective = state.lastKnown
				for (pendingName, change) in state.flush.pending {
					prospective[pendingName] = change.value
				}
				prospective[name] = value
				estimate = SuiteFileContents.encodedSize(prospective)
				guard estimate <= limit else {
					return Defaults.Diagnostic(
						kind: .fileSizeLimitExceeded,
						key: name,
						message: "suite '\(domainName)': writing '\(name)' would make \(url.path) \(estimate) bytes, more than the \(limit / 1024 / 1024) MiB the library reads back; the write was refused, and the value stays as it was"
					)
				}
			}

			state.sizeEstimate = estimate
			return nil
		}
	}

	/// About what one entry adds to the file (a bound: the whole suite is measured exactly near the limit).
	private static func entrySize(_ name: String, _ value: PropertyListValue?) -> Int64 {
		guard let value else {
			return 0
		}

		return Int64(BinaryPropertyListWriter.entrySizeBound(name: name, value: value))
	}

	/// A write prepared before the inter-process lock is taken, from the file as it was then.
	private struct WriteAhead {
		/// The file's contents and version it was prepared from: it is used only if the file is still at that version under the lock.
		let base: (contents: [String: PropertyListValue], version: FileVersion)
		/// The base with the pending changes applied.
		let contents: [String: PropertyListValue]
		/// The new file, written and synced beside the suite's; `nil` when the changes leave the contents as they are.
		let replacement: PreparedReplacement?
		let digest: Int?
		/// How long preparing took.
		let nanoseconds: UInt64
	}

	/**
	Applies `pending` to the file as it is now and writes the result beside it,
	ahead of the lock: from what this process last read or wrote when the file
	has not changed since, else from the file read again now. `nil` when there
	is no file or it does not read (the write is then done under the lock).
	*/
	private func writeAhead(applying pending: [(name: String, change: FlushPolicy.Change)]) -> WriteAhead? {
		let start = DispatchTime.now()
		guard let identity = fileSystem.identity(of: url) else {
			return nil
		}

		var (contents, version) = state.withLock { ($0.lastKnown, $0.lastKnownVersion) }
		let lookedAt = FileVersion.now()
		if (try? version.isCurrent(identity, contents: { () throws(Defaults.PersistenceError) in try fileSystem.read(url) })) == true {
			// Checked here, a version written moments ago (whose identity alone cannot tell) needs no read under the lock.
			version = version.confirmed(at: lookedAt)
		} else {
			// The identity is taken before the bytes are read: a file replaced in between is seen as changed under the lock.
			guard let data = try? fileSystem.read(url), case .contents(let current) = SuiteFileContents.decode(data) else {
				return nil
			}

			(contents, version) = (current, FileVersion(identity: identity, contents: data))
		}

		let base = (contents: contents, version: version)
		for (name, change) in pending {
			contents[name] = change.value
		}

		var replacement: PreparedReplacement?
		var digest: Int?
		if contents != base.contents {
			guard let data = try? SuiteFileContents.encode(contents, for: url.path), let prepared = try? fileSystem.prepareReplacement(of: url, with: data) else {
				return nil
			}

			(replacement, digest) = (prepared, FileVersion.digest(data))
		}

		return WriteAhead(base: base, contents: contents, replacement: replacement, digest: digest, nanoseconds: DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds)
	}

	/**
	Brings Foundation's copy of the suite in step with the file just written,
	so raw `UserDefaults` reads see the library's writes; runs under the
	inter-process lock. Returns the file's contents when Foundation changed
	them, and the version the file is left at.

	`synchronize()` makes Foundation drop its copy, to read the file again on
	its next read. If this process wrote keys through raw `UserDefaults`
	without synchronizing them, Foundation first writes those keys into the
	file, in place. Such a raw write was made after this process's last write
	of the file (which synchronized Foundation), at a moment nobody knows.
	Where the library wrote the same key since then (this flush, an earlier
	one, or another process, under the lock), the two writes are unordered:
	the library's value, the one every process has seen, is written back and
	the revert reported. A raw write of a key nobody else wrote since is the
	newest value, and stays.
	*/
	private func keepFoundationInStep(
		_ file: LockedReplace,
		written writtenVersion: FileVersion,
		contents writtenContents: [String: PropertyListValue],
		writtenByTheLibrary: Set<String>
	) throws(Defaults.PersistenceError) -> (contents: [String: PropertyListValue]?, version: FileVersion, diagnostics: [Defaults.Diagnostic]) {
		suite.defaults.synchronize()
		let identity = file.identity
		var data: Data?
		let isUnchanged = try writtenVersion.isCurrent(identity) { () throws(Defaults.PersistenceError) in
			data = try file.data()
			return data
		}
		if isUnchanged {
			return (nil, writtenVersion, [])
		}

		if data == nil {
			data = try file.data()
		}

		guard case .contents(var contents) = SuiteFileContents.decode(data) else {
			return (nil, writtenVersion, [])
		}

		let reverted = SuiteFileContents.changedKeys(from: writtenContents, to: contents).intersection(writtenByTheLibrary).sorted()
		guard !reverted.isEmpty else {
			return (contents, FileVersion(identity: identity, contents: data), [])
		}

		for name in reverted {
			contents[name] = writtenContents[name]
		}

		let version = try file.replace(with: contents)
		// Foundation has nothing unsaved left: this only makes it read the file again.
		suite.defaults.synchronize()
		let names = reverted.joined(separator: ", ")
		let diagnostic = Defaults.Diagnostic(
			kind: .restoredNewerValue,
			key: reverted.count == 1 ? reverted[0] : nil,
			message: "suite '\(domainName)': raw UserDefaults in this process saved \(names) (set without synchronize()) over the value the library wrote under the suite's lock, here or in another process; the two writes are unordered, so the library's value, the one other processes have seen, was kept and written back"
		)
		return (contents, version, [diagnostic])
	}

	/**
	Reads the file under the inter-process lock; a file that does not parse
	while it keeps changing is being rewritten in place by a program that does
	not take the lock (Foundation's own `UserDefaults` does that), so it is
	read again after short waits, until it parses, stops changing, or
	``PersistenceSettings/settleLimit`` has passed. Returns what was read last
	and the identity it was read at.
	*/
	private func readSettled(
		_ identity: FileIdentity?
	) throws(Defaults.PersistenceError) -> (reading: SuiteFileContents.Reading, data: Data?, identity: FileIdentity?) {
		var (reading, data) = try fileSystem.reading(url)
		var identity = identity
		let deadline = ContinuousClock.now + PersistenceSettings.settleLimit
		var unchangedSince = ContinuousClock.now
		while case .unreadable = reading, ContinuousClock.now < deadline {
			usleep(UInt32(PersistenceSettings.settleStep / .microseconds(1)))
			let current = fileSystem.identity(of: url)
			let (next, nextData) = try fileSystem.reading(url)
			if current == identity, nextData == data {
				// Unchanged for a while: nobody is writing it (a writer descheduled between
				// truncating and writing can leave it unchanged over one step), it is what it is.
				if ContinuousClock.now - unchangedSince >= PersistenceSettings.settleQuiet {
					break
				}

				continue
			}

			(reading, data, identity) = (next, nextData, current)
			unchangedSince = ContinuousClock.now
		}

		return (reading, data, identity)
	}

	/**
	A file that does not parse is never silently replaced: it is moved aside
	with a timestamped name, and the suite continues from what this process
	holds in memory. The same bytes failing again within
	``PersistenceSettings/setAsideBurst`` (a program that keeps writing the
	same broken file) are not set aside again: one copy is enough. The
	diagnostic is returned, to be reported once the locks are released.
	*/
	private func recoverFromUnreadableFile(
		_ reading: SuiteFileContents.Reading
	) throws(Defaults.PersistenceError) -> (contents: [String: PropertyListValue], diagnostic: Defaults.Diagnostic) {
		var message = "the file \(url.path) \(reading.problem ?? "")"
		if reading.mustBeSetAside {
			let now = ContinuousClock.now
			let failure = SetAside(bytes: reading.unreadableBytes, at: now)
			let previous = state.withLock { $0.lastSetAside }
			if let previous, previous.bytes == failure.bytes, now - previous.at < PersistenceSettings.setAsideBurst {
				message += "; not set aside again (the same bytes were set aside \(((now - previous.at) / .milliseconds(1)).rounded()) ms ago)"
			} else {
				let aside = try fileSystem.moveUnreadableAside(url)
				state.withLock { $0.lastSetAside = failure }
				message += "; moved aside to \(aside.path)"
			}
		}

		let diagnostic = Defaults.Diagnostic(kind: .unreadableFile, key: nil, message: message + "; rewriting it from the values in memory")
		return (suite.values.storedValues(), diagnostic)
	}

	/// What other processes changed between two readings of the file (each key's new value), leaving out keys this process is about to write.
	private func externalChanges(
		from old: [String: PropertyListValue],
		to new: [String: PropertyListValue],
		excluding pending: Set<String>
	) -> [String: PropertyListValue?] {
		externalChanges(SuiteFileContents.changedKeys(from: old, to: new).subtracting(pending), in: new)
	}

	/// The new values of `names` in `new` (`nil`: removed).
	private func externalChanges(_ names: Set<String>, in new: [String: PropertyListValue]) -> [String: PropertyListValue?] {
		var changes: [String: PropertyListValue?] = [:]
		for name in names {
			changes[name] = .some(new[name])
		}

		return changes
	}

	/**
	Applies what other processes changed, and what a commit changed, to the
	suite's values; call with
	`fileLock` held, so that whoever takes the lock next (a flush returning to
	its caller) finds the values already up to date.
	*/
	private func applyToValues(_ outcome: inout Outcome) {
		let changes = outcome.external.merging(outcome.committed) { _, committed in committed }
		guard !changes.isEmpty else {
			return
		}

		outcome.notifications = suite.applyExternalChanges(changes.mapValues { $0?.object })
	}

	/// Reports and notifies what a flush or a look at the file found, once every lock is released.
	private func deliver(_ outcome: Outcome) {
		for diagnostic in outcome.diagnostics {
			DiagnosticReporter.report(diagnostic)
		}

		for notification in outcome.notifications {
			notification.deliver()
		}
	}
}

extension Duration {
	/// The duration in seconds, for `Date` arithmetic.
	var timeInterval: TimeInterval {
		self / .seconds(1)
	}

	/// The duration to the nanosecond, for dispatch's timers.
	var dispatchInterval: DispatchTimeInterval {
		let (seconds, attoseconds) = components
		return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
	}
}
