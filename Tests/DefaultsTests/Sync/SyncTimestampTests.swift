import Foundation
import Testing
@testable import Defaults

@Suite("Hybrid logical clock")
struct SyncTimestampTests {
	@Test func orderedByTimeThenCounterThenDevice() {
		let a = Defaults.SyncTimestamp(milliseconds: 10, counter: 5, device: "b")
		let b = Defaults.SyncTimestamp(milliseconds: 11, counter: 0, device: "a")
		let c = Defaults.SyncTimestamp(milliseconds: 11, counter: 1, device: "a")
		let d = Defaults.SyncTimestamp(milliseconds: 11, counter: 1, device: "b")
		#expect([d, c, b, a].sorted() == [a, b, c, d])
	}

	@Test func aDevicesOwnChangesStayInOrderWhenItsClockGoesBack() {
		let wall = Locked<Int64>(1_000)
		let clock = HybridLogicalClock(device: "phone") { wall.withLock { $0 } }
		let first = clock.now()
		wall.withLock { $0 = 400 }
		let second = clock.now()
		let third = clock.now()
		#expect(first < second && second < third)
	}

	@Test func changesAfterAdoptingARemoteValueAreOrderedAfterIt() {
		let clock = HybridLogicalClock(device: "slow") { 100 }
		let remote = Defaults.SyncTimestamp(milliseconds: 5_000, counter: 3, device: "fast")
		clock.observe(remote)
		#expect(clock.now() > remote)
	}
}
