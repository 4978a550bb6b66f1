#if Configuration
import Configuration
import Defaults
import DefaultsConfiguration
import DefaultsTestSupport
import Foundation
import Testing

@Suite("DefaultsProvider snapshots are consistent")
struct SnapshotConsistencyTests {
	/// Rounds of the race; `DEFAULTS_CONFIG_SNAPSHOT_ROUNDS` raises it.
	static let rounds = TestEnvironment.count("DEFAULTS_CONFIG_SNAPSHOT_ROUNDS", default: 2_000)

	/**
	A writer sets `first` to n, then `second` to n, n = 1, 2, 3…; a snapshot
	read all at once always finds `first` equal to `second` or one ahead. One
	that read the keys at different moments could find `second` ahead, or
	`first` more than one ahead.
	*/
	@Test func aSnapshotNeverMixesBeforeAndAfterAWrite() throws {
		let suite = TestSuite()
		let first = Defaults.Key<Int>("first", default: 0, suite: suite.defaults)
		let second = Defaults.Key<Int>("second", default: 0, suite: suite.defaults)
		let provider = DefaultsProvider(suite: suite.defaults, keyMapping: .flat())
		let rounds = Self.rounds

		let writing = Locked(true)
		let writer = Thread {
			for n in 1...rounds {
				Defaults[first] = n
				Defaults[second] = n
			}

			writing.withLock { $0 = false }
		}
		writer.start()

		var mixed: [(Int, Int)] = []
		var snapshots = 0
		repeat {
			let snapshot = provider.snapshot()
			let one = integer(try snapshot.value(forKey: ["first"], type: .int))
			let two = integer(try snapshot.value(forKey: ["second"], type: .int))
			if one != two, one != two + 1 {
				mixed.append((one, two))
			}

			snapshots += 1
		} while writing.withLock({ $0 })

		let mixedCount = mixed.count
		#expect(mixedCount == 0, "mixed snapshots, as (first, second): \(mixed.prefix(5))")
		print("measured: \(snapshots) snapshots taken during \(rounds) paired writes, \(mixed.count) mixed")
	}
}

/// The integer a lookup found, 0 when none.
private func integer(_ result: LookupResult) -> Int {
	guard case .int(let value)? = result.value?.content else {
		return 0
	}

	return value
}
#endif
