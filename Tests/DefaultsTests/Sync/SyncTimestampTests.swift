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

	@Test("a counter at its largest carries into the next millisecond instead of overflowing", arguments: [UInt32.max, Defaults.SyncTimestamp.maximumCounter])
	func counterCarries(counter: UInt32) {
		let clock = HybridLogicalClock(device: "stalled") { 100 }
		let seen = Defaults.SyncTimestamp(milliseconds: 5_000, counter: counter, device: "other")
		clock.observe(seen)
		let next = clock.now()
		#expect(next > seen)
		#expect((next.milliseconds, next.counter) == (5_001, 0))
	}

	@Test func stampsNoRealClockGivesAreImplausible() {
		let now: Int64 = 1_800_000_000_000
		let year: Int64 = 366 * 86_400_000
		func stamp(_ milliseconds: Int64, _ counter: UInt32 = 0) -> Defaults.SyncTimestamp {
			Defaults.SyncTimestamp(milliseconds: milliseconds, counter: counter, device: "d")
		}

		#expect(stamp(now + year).implausibility(at: now) == nil)
		#expect(stamp(-5).implausibility(at: now) == nil)
		#expect(stamp(.min).implausibility(at: now) == nil)
		#expect(stamp(now, Defaults.SyncTimestamp.maximumCounter).implausibility(at: now) == nil)
		#expect(stamp(now + 11 * year).implausibility(at: now) != nil)
		#expect(stamp(.max).implausibility(at: -now) != nil)
		#expect(stamp(now, .max).implausibility(at: now) != nil)
	}
}
