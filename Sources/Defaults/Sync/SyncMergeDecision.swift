/**
What the synchroniser does with one synced key after reading the remote: the
merge rule, as a pure decision (no clock, no suite, no remote).

The latest explicit change wins. A device that never changed the key (no
local timestamp) takes the remote's entry; one that changed it later than
the remote knows offers its value again; a remote stamp no real clock gives
is refused whatever the local state.

<!-- check: internal -->
```swift
let decision = SyncMergeDecision(local: ledger[name], remote: entries[name], now: clock.wallMilliseconds)
```
*/
enum SyncMergeDecision: Hashable, Sendable {
	/// The remote's entry is the latest change (or this device never changed the key): apply it here.
	case adopt(Defaults.RemoteEntry)
	/// This device changed the key, at `timestamp`, later than the remote knows (or the remote lost it): publish the local value again.
	case republish(Defaults.SyncTimestamp)
	/// The remote's entry carries `timestamp`, which no real clock gives now, for `reason`: the local value stays.
	case refuse(Defaults.SyncTimestamp, reason: String)
	/// Already in step (equal timestamps), or neither side ever changed the key.
	case skip

	/**
	The decision for a key last changed here at `local` (`nil`: never) whose
	remote entry is `remote` (`nil`: none), at `now` (Unix milliseconds).
	*/
	init(local: Defaults.SyncTimestamp?, remote: Defaults.RemoteEntry?, now: Int64) {
		guard let remote else {
			self = local.map(Self.republish) ?? .skip
			return
		}

		if let reason = remote.timestamp.implausibility(at: now) {
			self = .refuse(remote.timestamp, reason: reason)
		} else if let local, local >= remote.timestamp {
			self = local > remote.timestamp ? .republish(local) : .skip
		} else {
			self = .adopt(remote)
		}
	}
}
