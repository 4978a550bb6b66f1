import Testing
@testable import Defaults

@Suite("Remote quota")
struct RemoteQuotaTests {
	@Test func withoutLimitsEverythingIsCounted() {
		var quota = RemoteQuota()
		#expect(quota.admit("a", bytes: 1_000_000, within: .unlimited) == nil)
		#expect(quota.admit("b", bytes: 5, within: .unlimited) == nil)
		#expect(quota.sizes == ["a": 1_000_000, "b": 5])
		#expect(quota.totalBytes == 1_000_005)
	}

	@Test func aNewKeyBeyondTheKeyLimitIsRefusedAndNotCounted() {
		var quota = RemoteQuota()
		let limits = Defaults.RemoteLimits(maximumKeys: 1)
		#expect(quota.admit("a", bytes: 10, within: limits) == nil)
		#expect(quota.admit("b", bytes: 10, within: limits) == .tooManyKeys(maximum: 1))
		#expect(quota.admit("b", bytes: 10, within: limits)?.description == "the remote holds at most 1 keys")
		#expect(quota.sizes == ["a": 10])
		// A key already counted is not a new key.
		#expect(quota.admit("a", bytes: 20, within: limits) == nil)
		#expect(quota.totalBytes == 20)
	}

	@Test func aKeyPublishedAgainIsCountedAtItsNewSizeNotTwice() {
		var quota = RemoteQuota()
		let limits = Defaults.RemoteLimits(maximumTotalBytes: 100)
		#expect(quota.admit("a", bytes: 60, within: limits) == nil)
		#expect(quota.admit("a", bytes: 90, within: limits) == nil)
		#expect(quota.totalBytes == 90)
		#expect(quota.admit("b", bytes: 11, within: limits) == .tooManyBytes(maximum: 100))
		#expect(quota.admit("b", bytes: 11, within: limits)?.description == "the remote holds at most 100 bytes in all")
		#expect(quota.admit("b", bytes: 10, within: limits) == nil, "exactly at the limit fits")
		#expect(quota.totalBytes == 100)
		// Shrinking a key makes room.
		#expect(quota.admit("a", bytes: 40, within: limits) == nil)
		#expect(quota.admit("c", bytes: 50, within: limits) == nil)
		#expect(quota.sizes == ["a": 40, "b": 10, "c": 50])
	}

	@Test func anEntryIsMeasuredAsItsNameAndItsValueAsABinaryPropertyList() throws {
		let stamp = Defaults.SyncTimestamp(milliseconds: 1, counter: 0, device: "d")
		let tombstone = Defaults.RemoteEntry(value: nil, timestamp: stamp)
		#expect(RemoteQuota.bytes(of: "theme", tombstone) == 5 + 16)
		let small = RemoteQuota.bytes(of: "theme", Defaults.RemoteEntry(value: "dark", timestamp: stamp))
		let large = RemoteQuota.bytes(of: "theme", Defaults.RemoteEntry(value: .init(String(repeating: "x", count: 1_000)), timestamp: stamp))
		#expect(small > 5)
		#expect(large - small >= 996, "grows with the value")
	}
}
