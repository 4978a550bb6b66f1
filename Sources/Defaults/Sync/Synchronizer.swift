import Foundation

/**
Keeps synced keys merged with a remote store, key by key: the latest explicit
change wins, by hybrid-logical-clock timestamp.

- A local write, `reset` or removal (reported by the suite, whose
  ``SuiteSyncLink`` this is) gets a timestamp in the suite's ``SyncLedger``
  and is published.
- A remote entry is adopted when this device has no timestamp for the key
  (it never wrote it: its value is only a default) or an older one. It is
  applied through the suite, so it persists and reaches observers, but it
  is not reported back as a local change, so nothing echoes
  (``SyncMergeDecision`` is the rule).
- A key this device never wrote is never published: a freshly installed
  device cannot push its defaults over real values elsewhere. What the
  remote cannot hold (``RemoteQuota``) is reported and stays local.
- The clock starts past every timestamp in the ledgers (so a write after a
  restart is ordered after the values adopted before it) and moves past
  every remote timestamp read, adopted or not. A remote timestamp no real
  clock gives is refused with a diagnostic, never adopted.
- Timestamps are signed with the remote's device name when it has one (else
  the synchroniser's), plus a tag of this synchroniser, so two processes of
  one device never make equal timestamps.

All work runs in order on one task; ``waitForSyncCompletion()`` waits for
the work queued before it.
*/
final class Synchronizer: SuiteSyncLink {
	struct KeyID: Hashable, Sendable {
		let suite: SuiteIdentity
		let name: String
	}

	private enum Work: Sendable {
		case publish
		/// Reads the remote for the keys gathered in `State.pullRequest`.
		case pull
		case barrier(CheckedContinuation<Void, Never>)
	}

	/// Keys to read from the remote: requests made while one is waiting join it, so declaring many keys costs one read.
	private enum PullRequest {
		case none
		case keys(Set<String>)
		case all
	}

	private struct State {
		var keys: [KeyID: Defaults._AnyKey] = [:]
		/// The suites of the keys ever added: their ledgers are saved after each piece of work.
		var suites: [SuiteIdentity: Suite] = [:]
		var remote: (any Defaults.RemoteStore)?
		var feed: Task<Void, Never>?
		/// Local changes waiting to be published.
		var outbox: [String: Defaults.RemoteEntry] = [:]
		/// What this device published to the current remote, for its limits.
		var quota = RemoteQuota()
		var pullRequest = PullRequest.none
		/// Implausible remote timestamps already reported, as `key@timestamp`: each is reported once.
		var refusedStamps: Set<String> = []
		/// Publishing or reading failing now: reported once per cause, counted, and reported again when it works.
		var failures = SyncFailureReports()
	}

	let clock: HybridLogicalClock
	/// The device name used when the remote names none.
	private let defaultDevice: String
	/// Tells this synchroniser's timestamps apart from another process's with the same device name.
	private let tag = String(UInt32.random(in: .min ... .max) | 0x1000_0000, radix: 16)
	private let state = Locked(State())
	private let work: AsyncStream<Work>.Continuation

	/// The synchroniser behind `Defaults.iCloud`.
	static let shared = Synchronizer(device: DeviceIdentity.current)

	init(device: String, wallClock: @escaping @Sendable () -> Int64 = HybridLogicalClock.systemMilliseconds) {
		defaultDevice = device
		clock = HybridLogicalClock(device: Self.signature(of: device, tag: tag), wallClock: wallClock)
		let (stream, continuation) = AsyncStream.makeStream(of: Work.self)
		work = continuation
		Task.detached { [weak self] in
			for await item in stream {
				guard let self else {
					if case .barrier(let waiter) = item {
						waiter.resume()
					}

					continue
				}

				await self.perform(item)
			}
		}
	}

	deinit {
		work.finish()
		state.withLock { $0.feed?.cancel() }
	}

	// MARK: Configuration

	var remote: (any Defaults.RemoteStore)? {
		get { state.withLock { $0.remote } }
		set {
			let feed = newValue.map { remote in
				Task.detached { [weak self] in
					for await keys in remote.changes() {
						self?.requestPull(keys.isEmpty ? nil : keys)
					}
				}
			}
			let previous = state.withLock { state in
				defer {
					state.remote = newValue
					state.feed = feed
					state.quota = RemoteQuota()
					// Another remote: the old one's failures say nothing about it.
					state.failures = SyncFailureReports()
				}

				return state.feed
			}
			previous?.cancel()
			clock.device = Self.signature(of: newValue?.deviceIdentity ?? defaultDevice, tag: tag)
			requestPull(nil)
			work.yield(.publish)
		}
	}

	/// How timestamps name the device `name`: the name, then the synchroniser's tag.
	private static func signature(of name: String, tag: String) -> String {
		"\(name)#\(tag)"
	}

	var keys: Set<Defaults._AnyKey> {
		Set(state.withLock { $0.keys.values })
	}

	func add(_ requested: [Defaults._AnyKey]) {
		let keys = SecretKeys.withoutSecrets(requested, from: "sync")
		guard keys.count == requested.count || !keys.isEmpty else {
			return
		}

		for key in keys {
			let suite = key.processWideSuite
			let isNewSuite = state.withLock { state in
				state.keys[KeyID(suite: suite.identity, name: key.name)] = key
				return state.suites.updateValue(suite, forKey: suite.identity) == nil
			}

			// The clock never runs behind a change this device made or adopted before, in any process.
			if isNewSuite, let latest = suite.syncLedger.latest(plausibleAt: clock.wallMilliseconds) {
				clock.observe(latest)
			}

			// The suite tells its synchroniser about each local change.
			suite.syncLink = self
		}

		requestPull(Set(keys.map(\.name)))
	}

	func remove(_ keys: [Defaults._AnyKey]) {
		state.withLock { state in
			for key in keys {
				state.keys[KeyID(suite: key.processWideSuite.identity, name: key.name)] = nil
			}
		}
	}

	func removeAll() {
		state.withLock { $0.keys = [:] }
	}

	/// Reads the remote again, as if it had announced a change.
	func refresh() {
		requestPull(nil)
	}

	/// Asks for a read of the remote for `names` (`nil`: every key), joining a read already waiting.
	private func requestPull(_ names: Set<String>?) {
		let isFirst = state.withLock { state in
			defer {
				switch (state.pullRequest, names) {
				case (.all, _), (_, nil):
					state.pullRequest = .all
				case (.none, let names?):
					state.pullRequest = .keys(names)
				case (.keys(let waiting), let names?):
					state.pullRequest = .keys(waiting.union(names))
				}
			}

			if case .none = state.pullRequest {
				return true
			}

			return false
		}

		if isFirst {
			work.yield(.pull)
		}
	}

	/// Returns once every change made or seen before the call has been published or applied.
	func waitForSyncCompletion() async {
		await withCheckedContinuation { waiter in
			work.yield(.publish)
			work.yield(.barrier(waiter))
		}
	}

	/// The timestamp of the key's last explicit change on this device, if any.
	func timestamp(of key: Defaults._AnyKey) -> Defaults.SyncTimestamp? {
		let suite = key.processWideSuite
		guard state.withLock({ $0.suites[suite.identity] != nil }) else {
			return nil
		}

		return suite.syncLedger[key.name]
	}

	// MARK: Local changes

	/// Called by a suite this synchroniser syncs, for every change the library makes to it locally.
	func recordLocalChange(_ name: String, to object: Any?, in suite: Suite) {
		guard state.withLock({ $0.keys[KeyID(suite: suite.identity, name: name)] != nil }) else {
			return
		}

		let timestamp = clock.now()
		suite.syncLedger.record(timestamp, for: name)
		let entry = Defaults.RemoteEntry(value: object.flatMap(PropertyListValue.init).map(Defaults.AnySerializable.init(storage:)), timestamp: timestamp)
		state.withLock { $0.outbox[name] = entry }
		debug("local change of '\(name)' at \(timestamp)")
		work.yield(.publish)
	}

	/// Saves the stamps whose values the suite's file holds now.
	func flushEnded(in suite: Suite) {
		// Only a file of a suite this synchroniser keeps stamps for needs a save.
		guard state.withLock({ $0.suites[suite.identity] === suite }) else {
			return
		}

		// Here, on the flushing thread once its locks are released, rather than as sync work: the flush at exit is the last
		// chance a process has to save the stamps of the values it writes.
		let backing = suite.backing
		suite.syncLedger.flushEnded { backing.isPending($0) }
	}

	/**
	Forgets the timestamps of `names`, whose values a flush refused (past the
	suite's size budget once merged with other processes' writes): they read
	the file's values again, which the timestamps saved before stamp. An entry
	not published yet is dropped; one published already comes back from the
	remote at the next pull, and is refused again while it does not fit. A name
	written again since keeps its newer timestamp.
	*/
	func valuesRefused(_ names: [String], in suite: Suite) {
		guard state.withLock({ $0.suites[suite.identity] === suite }) else {
			return
		}

		let backing = suite.backing
		let forgotten = suite.syncLedger.forgetUnsaved(names.filter { !backing.isPending($0) })
		state.withLock { state in
			for (name, timestamp) in forgotten where state.outbox[name]?.timestamp == timestamp {
				state.outbox[name] = nil
			}
		}
	}

	/**
	Publishes the removal of `names`, previous names of a synced key whose
	value moved to its new name: the remote's entries become tombstones
	stamped now, so no device pulls the old names back. Only suites with a
	synced key do this.
	*/
	func retire(_ names: [String], in suite: Suite) {
		guard state.withLock({ state in state.keys.keys.contains { $0.suite == suite.identity } }) else {
			return
		}

		let ledger = suite.syncLedger
		for name in names {
			let timestamp = clock.now()
			ledger.record(timestamp, for: name)
			state.withLock { $0.outbox[name] = Defaults.RemoteEntry(value: nil, timestamp: timestamp) }
			debug("retired '\(name)' at \(timestamp)")
		}

		work.yield(.publish)
	}

	// MARK: Work

	private func perform(_ item: Work) async {
		switch item {
		case .publish:
			await publishOutbox()
		case .pull:
			let request = state.withLock { state in
				defer { state.pullRequest = .none }
				return state.pullRequest
			}

			switch request {
			case .none:
				break
			case .keys(let names):
				await pull(only: names)
			case .all:
				await pull(only: nil)
			}
		case .barrier(let waiter):
			waiter.resume()
			return
		}

		for suite in state.withLock({ Array($0.suites.values) }) {
			// A saved timestamp says its value is stored: one whose value the suite has not written yet waits for its flush.
			let backing = suite.backing
			suite.syncLedger.saveRecorded { backing.isPending($0) }
		}
	}

	private func publishOutbox() async {
		let (remote, outbox) = state.withLock { state in
			defer {
				if state.remote != nil {
					state.outbox = [:]
				}
			}

			return (state.remote, state.outbox)
		}

		guard let remote, !outbox.isEmpty else {
			return
		}

		let accepted = withinLimits(outbox, of: remote)
		do {
			try await remote.publish(accepted)
			debug("published \(accepted.keys.sorted())")
			reportSuccess(of: .publishing)
		} catch {
			let report = state.withLock { state in
				state.outbox.merge(accepted) { newer, _ in newer }
				return state.failures.failed(.publishing, cause: "\(error)", at: .now)
			}

			if let report {
				DiagnosticReporter.report(.syncFailed, key: nil, report)
			}
		}
	}

	/// The entries the remote can take; the others are reported and stay local.
	private func withinLimits(_ entries: [String: Defaults.RemoteEntry], of remote: any Defaults.RemoteStore) -> [String: Defaults.RemoteEntry] {
		let limits = remote.limits
		var accepted: [String: Defaults.RemoteEntry] = [:]
		for (name, entry) in entries.sorted(by: { $0.key < $1.key }) {
			let size = RemoteQuota.bytes(of: name, entry)
			if let refusal = state.withLock({ $0.quota.admit(name, bytes: size, within: limits) }) {
				DiagnosticReporter.report(.syncFailed, key: name, "not synced: \(refusal); the value stays on this device")
			} else {
				accepted[name] = entry
			}
		}

		return accepted
	}

	private func pull(only names: Set<String>?) async {
		guard let remote = state.withLock({ $0.remote }) else {
			return
		}

		let entries: [String: Defaults.RemoteEntry]
		do {
			entries = try await remote.entries()
			reportSuccess(of: .reading)
		} catch {
			if let report = state.withLock({ $0.failures.failed(.reading, cause: "\(error)", at: .now) }) {
				DiagnosticReporter.report(.syncFailed, key: nil, report)
			}
			return
		}

		let keys = state.withLock { state in
			state.keys.values.filter { names?.contains($0.name) ?? true }
		}

		let now = clock.wallMilliseconds
		var republish = false
		for key in keys {
			let ledger = key.processWideSuite.syncLedger
			let decision = SyncMergeDecision(local: ledger[key.name], remote: entries[key.name], now: now)
			if case .refuse(let timestamp, let reason) = decision {
				refuse(timestamp, of: key.name, because: reason)
				continue
			}

			// Seen is enough: a later write here must be ordered after it, even when it is not adopted.
			if let entry = entries[key.name] {
				clock.observe(entry.timestamp)
			}

			switch decision {
			case .adopt(let entry):
				adopt(entry, for: key, ledger: ledger)
			case .republish(let local):
				let stored = key.processWideSuite.values.ownObject(forKey: key.name).flatMap(PropertyListValue.init)
				let entry = Defaults.RemoteEntry(value: stored.map(Defaults.AnySerializable.init(storage:)), timestamp: local)
				state.withLock { $0.outbox[key.name] = $0.outbox[key.name] ?? entry }
				republish = true
			case .refuse, .skip:
				break
			}
		}

		if republish {
			await publishOutbox()
		}
	}

	private func refuse(_ timestamp: Defaults.SyncTimestamp, of name: String, because reason: String) {
		let isNew = state.withLock { $0.refusedStamps.insert("\(name)@\(timestamp)").inserted }
		if isNew {
			DiagnosticReporter.report(.syncFailed, key: name, "the remote entry stamped \(timestamp) was refused: \(reason); the local value stays")
		}
	}

	private func adopt(_ entry: Defaults.RemoteEntry, for key: Defaults._AnyKey, ledger: SyncLedger) {
		let suite = key.processWideSuite
		// Already stored (another process of this host adopted it into the shared file first): only the stamp is new here.
		// Writing it again would rewrite the file for every process of the host, and tell observers of a change that is not one.
		// The stored value itself: a launch argument equal to the pulled value does not make it stored.
		let isStored = suite.values.storedObject(forKey: key.name).flatMap(PropertyListValue.init) == entry.value?.storage
		// Recorded only once stored: a pull the suite refused (its size budget) is tried again at the next pull, not skipped as done.
		guard isStored || suite.change(key.name, to: entry.value?.storage?.object, origin: .synced) else {
			return
		}

		ledger.record(entry.timestamp, for: key.name)
		debug("adopted '\(key.name)' from \(entry.timestamp)")
	}

	/// Ends an outage of `operation`, if there was one, with the count of its failures.
	private func reportSuccess(of operation: SyncFailureReports.Operation) {
		if let report = state.withLock({ $0.failures.succeeded(operation, at: .now) }) {
			DiagnosticReporter.report(.syncRecovered, key: nil, report)
		}
	}

	private func debug(_ message: @autoclosure () -> String) {
		if Defaults.iCloud.isDebug {
			DiagnosticReporter.report(.syncEvent, key: nil, "[\(clock.device)] \(message())")
		}
	}
}
