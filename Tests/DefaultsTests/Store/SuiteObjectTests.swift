import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

@Suite("One object per suite")
struct SuiteObjectTests {
	@Test func twoUserDefaultsOfOneDomainShareTheirSuiteObject() {
		let suite = TestSuite()
		let again = UserDefaults(suiteName: suite.name)!
		#expect(Suite.of(suite.defaults) === Suite.of(again))
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		again[key] = 4
		#expect(Defaults[key] == 4)
		#expect(key.suiteObject === Suite.of(again))
	}

	@Test func precedenceIsArgumentThenStoredThenGlobalThenRegistered() {
		let values = OwnedSuiteValues(
			stored: ["stored": .integer(2), "both": .integer(2)],
			arguments: ["argument": 1, "both": 1],
			global: ["global": .integer(3), "stored": .integer(3), "registered": .integer(3)]
		)
		values.register(4, forKey: "registered")
		values.register(4, forKey: "only registered")
		values.register(4, forKey: "global")
		#expect(values.entry(forKey: "argument")?.object as? Int == 1)
		#expect(values.entry(forKey: "both")?.object as? Int == 1)
		#expect(values.entry(forKey: "stored")?.object as? Int == 2)
		#expect(values.entry(forKey: "global")?.object as? Int == 3)
		#expect(values.entry(forKey: "registered")?.object as? Int == 3)
		#expect(values.entry(forKey: "only registered")?.object as? Int == 4)
		#expect(values.entry(forKey: "none") == nil)

		// Removing the stored value uncovers the global one, then the registered default.
		_ = values.apply(nil, to: "stored") { _, _ in true }
		#expect(values.entry(forKey: "stored")?.object as? Int == 3)
		#expect(values.ownObject(forKey: "stored") == nil)
		#expect(values.ownObject(forKey: "argument") as? Int == 1)
		_ = values.apply(9, to: "both") { _, _ in true }
		#expect(values.entry(forKey: "both")?.object as? Int == 1, "a launch argument still wins")
	}

	@Test func aGlobalDomainChangeReachesReadsAndObservers() {
		let values = OwnedSuiteValues(stored: ["shadowed": .integer(1)], arguments: [:], global: [:])
		values.register(0, forKey: "g")
		let changes = values.replaceGlobal(with: ["g": .integer(7), "shadowed": .integer(7)])
		#expect(values.entry(forKey: "g")?.object as? Int == 7)
		#expect(changes.keys.sorted() == ["g"], "a stored value hides the global one: its reads did not change")
		#expect(changes["g"]?.oldObject as? Int == 0)
	}

	@Test func eachVersionIsDecodedOnce() {
		let suite = TestSuite()
		let key = Defaults.Key<SampleTime>(suite.keyName(), default: SampleTime(hour: 0, minute: 0), suite: suite.defaults)
		Defaults[key] = SampleTime(hour: 1, minute: 2)
		let first = key.suiteObject.values.entry(forKey: key.name)
		#expect(first?.decoded == nil)
		_ = Defaults[key]
		let second = key.suiteObject.values.entry(forKey: key.name)
		#expect(second?.decoded != nil, "the first read remembers what it decoded")
		#expect(second?.version == first?.version)
		Defaults[key] = SampleTime(hour: 3, minute: 4)
		#expect(key.suiteObject.values.entry(forKey: key.name)?.decoded == nil, "a new version forgets it")
		#expect(Defaults[key] == SampleTime(hour: 3, minute: 4))
	}

	/// Counts the work a write does in the values store: constant, whatever the suite's size.
	@Test func aWriteCostsTheSameAtTenAndTenThousandKeys() {
		func lookups(atSize size: Int) -> Int {
			let stored = Dictionary(uniqueKeysWithValues: (0..<size).map { ("k\($0)", PropertyListValue.integer($0)) })
			let values = OwnedSuiteValues(stored: stored, arguments: [:], global: [:])
			var recorded = 0
			for round in 0..<100 {
				_ = values.apply(round, to: "k\(round % size)") { _, _ in
					recorded += 1
					return true
				}
			}

			return recorded
		}

		#expect(lookups(atSize: 10) == lookups(atSize: 10_000))
		// Wall-clock-free cost comparison: the same write, timed at both sizes in one run.
		let small = writeCost(atSize: 10)
		let large = writeCost(atSize: 10_000)
		#expect(large < small * 8, "a write at 10k keys cost \(large) against \(small) at 10 keys")
	}

	private func writeCost(atSize size: Int) -> Duration {
		let suite = TestSuite()
		let keys = (0..<size).map { Defaults.Key<Int>("k\($0)", default: 0, suite: suite.defaults) }
		for key in keys {
			Defaults[key] = 1
		}

		let key = keys[size / 2]
		var best = Duration.seconds(1)
		for _ in 0..<5 {
			let start = ContinuousClock.now
			for value in 0..<2_000 {
				Defaults[key] = value
			}

			best = min(best, ContinuousClock.now - start)
		}

		try? Defaults.flush(suite: suite.defaults)
		return best
	}

	@Test func theAppleStoreKeepsWorkingOnLinux() throws {
		let suite = TestSuite()
		Suite.keepValuesInFoundation(for: suite.defaults)
		#expect(Suite.of(suite.defaults).values is FoundationSuiteValues)
		let key = Defaults.Key<SampleTime>(suite.keyName(), default: SampleTime(hour: 0, minute: 0), suite: suite.defaults)
		let count = Defaults.Key<Int>(suite.keyName(), default: 5, suite: suite.defaults)
		let changes = Recorder<Int>()
		let observation = Defaults.observe(count, options: []) { changes.append($0.newValue) }
		defer { observation.invalidate() }

		#expect(Defaults[count] == 5)
		#expect(!Defaults.hasKey(count))
		Defaults[count] = 6
		Defaults[key] = SampleTime(hour: 9, minute: 1)
		#expect(Defaults[count] == 6)
		#expect(Defaults.hasKey(count))
		#expect(Defaults[key] == SampleTime(hour: 9, minute: 1))
		#expect(Defaults[key] == SampleTime(hour: 9, minute: 1), "read again: the remembered value")
		#expect(suite.defaults.object(forKey: count.name) as? Int == 6, "UserDefaults itself holds the value")
		Defaults.reset(count)
		#expect(Defaults[count] == 5)
		Defaults.removeAll(suite: suite.defaults)
		#expect(Defaults[key] == SampleTime(hour: 0, minute: 0))
		#expect(changes.values == [6, 5])
		try Defaults.flush(suite: suite.defaults)
	}
}
