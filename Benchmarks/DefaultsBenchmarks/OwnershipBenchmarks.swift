import Defaults
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/**
A write of an `Int` with nobody observing, on suites of growing size: constant
for us, O(suite) for Foundation. Each size has two rows from the same rounds:
ours against raw `set`, and ours against the floor of a write (a locked
dictionary of as many keys, set plus a dirty flag).
*/
func writeAtScaleBenchmarks() -> [Row] {
	[(10, 2_000, 9), (1_000, 400, 7), (10_000, 100, 5)].flatMap { keyCount, iterations, rounds in
		let ours = makeSuite("write-scale-ours", keyCount: keyCount)
		let raw = makeSuite("write-scale-raw", keyCount: keyCount)
		let floor = LockedDictionary(keyCount: keyCount)
		let key = Defaults.Key<Int>("filler1", default: 0, suite: ours)
		_ = raw.object(forKey: "filler1")
		// The floor is cheap (tens of nanoseconds): enough calls that a round lasts about a millisecond.
		let floorIterations = 20_000
		let rows = compareMeasured(
			"write Int, nobody observing, \(keyCount) keys",
			rounds: rounds,
			ours: { time(iterations) { ours[key] = $0 } },
			baselines: [
				Baseline("raw set", target: .absolute(nanoseconds: 2_000), iterations: iterations) {
					raw.set($0, forKey: "filler1")
				},
				Baseline("floor: locked [String: Any] set + dirty flag", target: .atMost(10), iterations: floorIterations) {
					floor.set($0, for: "filler1")
				},
			]
		)
		try? Defaults.flush(suite: ours)
		consume(floor.wasWritten)
		return rows
	}
}

/**
10,000 distinct keys written one by one, until they are on disk: ours ends
with `Defaults.flush`, raw with `synchronize()`. Also counts how many times
our file was replaced.
*/
func distinctKeysBenchmark() -> (row: Row, flushes: Int) {
	let keyCount = 10_000
	var flushCounts: [Int] = []
	let ours = (0..<3).map { _ -> Double in
		let suite = makeSuite("distinct-ours", keyCount: 0)
		let keys = (0..<keyCount).map { Defaults.Key<Int>("key\($0)", default: 0, suite: suite) }
		let replacements = try! FileWriteCounter(watching: Benchmark.configFolder, fileName: "\(suite.suiteNameForBenchmarks).plist")
		let start = nanoseconds()
		for (index, key) in keys.enumerated() {
			suite[key] = index
		}

		try? Defaults.flush(suite: suite)
		let elapsed = Double(nanoseconds() - start)
		flushCounts.append(replacements.count())
		return elapsed
	}

	// Foundation's cost is quadratic: one round is all a benchmark run can afford.
	let raw = makeSuite("distinct-raw", keyCount: 0)
	let start = nanoseconds()
	for index in 0..<keyCount {
		raw.set(index, forKey: "key\(index)")
	}

	raw.synchronize()
	let rawElapsed = Double(nanoseconds() - start)
	let row = Row(
		operation: "10,000 distinct keys, one by one, until on disk",
		ours: median(ours),
		baselineName: "raw set ×10k + synchronize()",
		baseline: rawElapsed,
		target: .absolute(nanoseconds: 500_000_000)
	)
	return (row, flushCounts.max() ?? 0)
}

/// What a 10,000-key suite costs a process, measured two ways, next to its file's size.
struct SuiteMemory {
	/// Peak memory above a process that loads nothing: the suite, and the code that loads it paged in.
	var aboveNone: (ours: Int, raw: Int)
	/// Resident memory a second suite adds to a process that loaded one: the suite alone.
	var secondSuite: (ours: Int, raw: Int)
	var fileBytes: Int
}

/// Measures ``SuiteMemory``, each figure in a process of its own; the suite the loads read is written here, in the parent.
func memoryOfALargeSuite() throws -> SuiteMemory {
	let fixture = makeSuite("load", keyCount: ChildRun.keyCount).suiteNameForBenchmarks
	let none = try ChildRun.loadNone.run(fixture: fixture)
	let ours = try ChildRun.loadOurs.run(fixture: fixture)
	let raw = try ChildRun.loadRaw.run(fixture: fixture)
	return SuiteMemory(
		aboveNone: (max(0, ours.peakMemoryBytes - none.peakMemoryBytes), max(0, raw.peakMemoryBytes - none.peakMemoryBytes)),
		secondSuite: (try ChildRun.secondOurs.run().peakMemoryBytes, try ChildRun.secondRaw.run().peakMemoryBytes),
		fileBytes: ours.bytesWritten
	)
}

extension UserDefaults {
	/// The name the benchmark gave the suite (swift-corelibs-foundation keeps it in a private property).
	var suiteNameForBenchmarks: String {
		Mirror(reflecting: self).children.first { $0.label == "suite" }?.value as? String ?? ""
	}
}
