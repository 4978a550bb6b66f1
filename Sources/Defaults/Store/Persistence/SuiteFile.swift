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

	private struct State {
		var pending: [String: Pending] = [:]
		var generation: UInt64 = 0
		var lastKnown: [String: PropertyListValue] = [:]
		/// The version of the file `lastKnown` was read from or written as.
		var lastKnownIdentity: FileIdentity?
		var isFlushScheduled = false
		/// How long the last write of the file took; large suites wait longer between writes.
		var lastWriteDuration: DispatchTimeInterval = .never
	}

	let url: URL
	private let domainName: String
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
		if case .contents(let contents) = SuiteFileContents.decode(try? fileSystem.read(url)) {
			state.withLock { state in
				state.lastKnown = contents
				state.lastKnownIdentity = identity
			}
		}
	}

	var hasPendingChanges: Bool {
		state.withLock { !$0.pending.isEmpty }
	}

	func record(_ name: String, object: Any?) {
		let value = object.flatMap(PropertyListValue.init)
		let mode = PersistenceSettings.writeMode
		let (shouldSchedule, lastWriteDuration) = state.withLock { state in
			state.generation += 1
			state.pending[name] = Pending(value: value, generation: state.generation)
			defer { state.isFlushScheduled = true }
			return (!state.isFlushScheduled, state.lastWriteDuration)
		}

		switch mode {
		case .writeThrough:
			state.withLock { $0.isFlushScheduled = false }
			flushReportingFailure()
		case .coalesced(let milliseconds):
			if shouldSchedule {
				let delay = PersistenceSettings.coalescingDelay(milliseconds: milliseconds, lastWriteDuration: lastWriteDuration)
				PersistenceSettings.queue.asyncAfter(deadline: .now() + delay) { [self] in
					state.withLock { $0.isFlushScheduled = false }
					flushReportingFailure()
				}
			}
		}
	}

	func flushReportingFailure() {
		do {
			try flush()
		} catch {
			DiagnosticReporter.report(
				.persistenceFailed,
				key: nil,
				"suite '\(domainName)': \(error); the changes stay in memory and are retried on the next write or flush"
			)
		}
	}

	func flush() throws(Defaults.PersistenceError) {
		fileLock.lock()
		let external: [String: ExternalChange]
		do {
			external = try writePending()
		} catch {
			fileLock.unlock()
			throw error
		}

		fileLock.unlock()
		apply(external)
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

			return externalChanges(from: state.lastKnown, to: contents, excluding: state.pending)
		}

		fileLock.unlock()
		apply(external)
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

	/// Applies the pending changes to the file; returns the keys other processes changed meanwhile.
	private func writePending() throws(Defaults.PersistenceError) -> [String: ExternalChange] {
		let pending = state.withLock { $0.pending }
		guard !pending.isEmpty else {
			return [:]
		}

		return try fileSystem.withExclusiveLock(for: url) { () throws(Defaults.PersistenceError) in
			fileSystem.removeAbandonedTemporaries(of: url)
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
					onDisk = try recoverFromUnreadableFile(data)
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

			return state.withLock { state in
				for (name, change) in pending where state.pending[name]?.generation == change.generation {
					state.pending[name] = nil
				}

				let external = externalChanges(from: state.lastKnown, to: onDisk, excluding: pending)
				state.lastKnown = contents
				state.lastKnownIdentity = newIdentity
				state.lastWriteDuration = writeDuration ?? state.lastWriteDuration
				return external
			}
		}
	}

	/**
	A file that does not parse is never silently replaced: it is moved aside
	with a timestamped name, and the suite continues from what this process
	holds in memory.
	*/
	private func recoverFromUnreadableFile(_ data: Data) throws(Defaults.PersistenceError) -> [String: PropertyListValue] {
		var message = "the file \(url.path) is not a readable property list (\(data.count) bytes)"
		if !data.isEmpty {
			let aside = try fileSystem.moveUnreadableAside(url)
			message += "; moved aside to \(aside.path)"
		}

		DiagnosticReporter.report(.unreadableFile, key: nil, message + "; rewriting it from the values in memory")
		let inMemory = suite.persistentDomain(forName: domainName) ?? [:]
		return inMemory.compactMapValues(PropertyListValue.init)
	}

	/// What other processes changed between two readings of the file, leaving out keys this process is about to write.
	private func externalChanges(
		from old: [String: PropertyListValue],
		to new: [String: PropertyListValue],
		excluding pending: [String: Pending]
	) -> [String: ExternalChange] {
		var changes: [String: ExternalChange] = [:]
		for name in SuiteFileContents.changedKeys(from: old, to: new) where pending[name] == nil {
			changes[name] = ExternalChange(old: old[name], new: new[name])
		}

		return changes
	}

	private func apply(_ external: [String: ExternalChange]) {
		for (name, change) in external {
			Store.applyExternalChange(name, from: change.old?.object, to: change.new?.object, in: suite)
		}
	}
}
