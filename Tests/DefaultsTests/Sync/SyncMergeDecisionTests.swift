import Testing
@testable import Defaults

@Suite("Sync merge decision")
struct SyncMergeDecisionTests {
	private let now: Int64 = 1_800_000_000_000

	private func stamp(_ milliseconds: Int64, _ counter: UInt32 = 0, _ device: String = "laptop") -> Defaults.SyncTimestamp {
		Defaults.SyncTimestamp(milliseconds: milliseconds, counter: counter, device: device)
	}

	private func entry(_ value: String?, at timestamp: Defaults.SyncTimestamp) -> Defaults.RemoteEntry {
		Defaults.RemoteEntry(value: value.map { Defaults.AnySerializable($0) }, timestamp: timestamp)
	}

	@Test func aKeyThisDeviceNeverChangedTakesTheRemoteEntry() {
		let remote = entry("dark", at: stamp(now - 1))
		#expect(SyncMergeDecision(local: nil, remote: remote, now: now) == .adopt(remote))
	}

	@Test func aLaterRemoteChangeWinsOverAnEarlierLocalOne() {
		let remote = entry("dark", at: stamp(now - 10, 0, "phone"))
		#expect(SyncMergeDecision(local: stamp(now - 20), remote: remote, now: now) == .adopt(remote))
		// Within one millisecond the counter orders, then the device name.
		let sameMillisecond = entry(nil, at: stamp(now - 20, 1))
		#expect(SyncMergeDecision(local: stamp(now - 20, 0), remote: sameMillisecond, now: now) == .adopt(sameMillisecond))
		let laterDevice = entry("x", at: stamp(now - 20, 0, "phone"))
		#expect(SyncMergeDecision(local: stamp(now - 20, 0, "laptop"), remote: laterDevice, now: now) == .adopt(laterDevice))
	}

	@Test func aLaterLocalChangeIsPublishedAgain() {
		let local = stamp(now - 10)
		#expect(SyncMergeDecision(local: local, remote: entry("old", at: stamp(now - 20)), now: now) == .republish(local))
	}

	@Test func aLocalChangeTheRemoteLostIsPublishedAgain() {
		let local = stamp(now - 10)
		#expect(SyncMergeDecision(local: local, remote: nil, now: now) == .republish(local))
	}

	@Test func equalStampsAndKeysNobodyChangedNeedNothing() {
		let both = stamp(now - 10)
		#expect(SyncMergeDecision(local: both, remote: entry("dark", at: both), now: now) == .skip)
		#expect(SyncMergeDecision(local: nil, remote: nil, now: now) == .skip)
	}

	@Test func aStampNoRealClockGivesIsRefusedWhateverTheLocalState() throws {
		let ahead = stamp(now + 100 * 365 * 86_400_000)
		let counter = stamp(now - 10, Defaults.SyncTimestamp.maximumCounter + 1)
		for remote in [entry("x", at: ahead), entry(nil, at: counter)] {
			for local in [nil, stamp(now - 20), stamp(now)] {
				let decision = SyncMergeDecision(local: local, remote: remote, now: now)
				guard case .refuse(let refused, let reason) = decision else {
					Issue.record("\(decision) for \(remote.timestamp) against \(String(describing: local))")
					continue
				}

				#expect(refused == remote.timestamp)
				#expect(reason == remote.timestamp.implausibility(at: now))
			}
		}
	}
}
