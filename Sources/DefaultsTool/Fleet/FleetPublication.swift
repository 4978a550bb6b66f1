import Defaults
import Foundation

/**
One key's change published to a fleet's remote, stamped as a device's explicit
write is: the hybrid logical clock first observes every timestamp the remote
holds, so the change is ordered after everything there and wins as a write
from a process would. Every process applies it as it applies any pulled value.

What the library would refuse is refused first, with one line: an invalid key
name, a value over the remote's limits or the fleet's per-value budget, a
stamp no store accepts. After publishing, the key is read back: a newer entry
there (another device wrote meanwhile) is reported rather than hidden.
*/
struct FleetPublication: Sendable {
	let key: String
	/// Builds the new value (`nil`: a tombstone) from the key's current one.
	let change: @Sendable (PropertyListValue?) throws -> PropertyListValue?
	/// The most bytes the value may take (the fleet's `SizeBudget.perValue`).
	let valueBudget: Int

	/// Refuses a name the library's keys cannot have, or a store cannot hold.
	static func validate(key: String) throws {
		if let problem = KeyName.problem(with: key) {
			throw ToolError.invalidKeyName(key, reason: problem)
		}

		if key.utf8.contains(0) {
			throw ToolError.invalidKeyName(key, reason: "a key name cannot contain NUL")
		}
	}

	/// Publishes the change; returns the entry the remote now holds for the key.
	func publish(to remote: FleetRemote) throws -> Defaults.RemoteEntry {
		try Self.validate(key: key)
		return try remote.perform { [self] store in
			let entries = try await store.entries()
			let entry = try stamp(entries, remote: remote, store: store)
			try await store.publish([key: entry])
			// The store keeps the newer entry: one that is not ours won against it.
			let stored = try await store.entries()[key]
			guard stored == entry else {
				if let stored, stored.timestamp > entry.timestamp {
					throw ToolError.newerOnRemote(key: key, stamp: entry.timestamp, newer: stored.timestamp)
				}

				throw ToolError.notPublished(key: key, stamp: entry.timestamp, remote: remote.name)
			}

			return entry
		}
	}

	private func stamp(_ entries: [String: Defaults.RemoteEntry], remote: FleetRemote, store: any Defaults.RemoteStore) throws -> Defaults.RemoteEntry {
		let clock = HybridLogicalClock(device: remote.device)
		for entry in entries.values {
			clock.observe(entry.timestamp)
		}

		let stamp = clock.now()
		let wall = HybridLogicalClock.systemMilliseconds()
		if let reason = stamp.implausibility(at: wall) {
			throw ToolError.implausibleStamp(stamp, reason: reason)
		}

		let value = try change(entries[key]?.value?.storage)
		let entry = Defaults.RemoteEntry(value: value.map(Defaults.AnySerializable.init(storage:)), timestamp: stamp)
		try checkSize(of: entry, among: entries, limits: store.limits)
		if let current = entries[key], current.timestamp.milliseconds > wall + 1_000 {
			// Not a failure: the change still wins, but its time says the future.
			Output.note("defaults: note: the entry of '\(key)' was stamped \(DateText.iso8601(FleetEntryText.date(of: current.timestamp))) by \(current.timestamp.device), ahead of this machine's clock; the change is stamped after it")
		}

		return entry
	}

	/// The remote's limits count every key it holds; the fleet's processes refuse a value over their budget.
	private func checkSize(of entry: Defaults.RemoteEntry, among entries: [String: Defaults.RemoteEntry], limits: Defaults.RemoteLimits) throws {
		let bytes = RemoteQuota.bytes(of: key, entry)
		if entry.value != nil, bytes > valueBudget {
			throw ToolError.valueOverBudget(key: key, bytes: bytes, budget: valueBudget)
		}

		var quota = RemoteQuota()
		for (name, other) in entries where name != key {
			quota.admit(name, bytes: RemoteQuota.bytes(of: name, other), within: .unlimited)
		}

		if let refusal = quota.admit(key, bytes: bytes, within: limits) {
			throw ToolError.overRemoteLimits(key: key, reason: refusal.description)
		}
	}
}
