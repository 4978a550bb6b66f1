import Defaults
import Foundation

/// The first read after a write, on suites of growing size: Foundation rebuilds its store there.
func firstReadAfterWriteBenchmarks() -> [Row] {
	[(10, 400, 9), (1_000, 20, 5), (10_000, 4, 3)].map { keyCount, iterations, rounds in
		let ours = makeSuite("first-read-ours", keyCount: keyCount)
		let raw = makeSuite("first-read-raw", keyCount: keyCount)
		let written = Defaults.Key<Int>("written", default: 0, suite: ours)
		let read = Defaults.Key<Int>("filler1", default: 0, suite: ours)
		let target: Row.Target? = keyCount == 10_000 ? .absolute(nanoseconds: 2_000) : nil
		return compareMeasured(
			"first read after a write, \(keyCount) keys",
			rounds: rounds,
			baselineName: "raw set, then object(forKey:)",
			target: target
		) {
			var total: UInt64 = 0
			for index in 0..<iterations {
				ours[written] = index
				let start = nanoseconds()
				consume(ours[read])
				total += nanoseconds() - start
			}

			return Double(total) / Double(iterations)
		} baseline: {
			var total: UInt64 = 0
			for index in 0..<iterations {
				raw.set(index, forKey: "written")
				let start = nanoseconds()
				consume(raw.object(forKey: "filler1") as? Int)
				total += nanoseconds() - start
			}

			return Double(total) / Double(iterations)
		}
	}
}

/// Writes to an observed key, with nobody else observing and with 10,000 observers on other keys.
func dispatchBenchmark() -> Row {
	let suite = makeSuite("dispatch")
	let observed = Defaults.Key<Int>("observed", default: 0, suite: suite)
	var deliveries = 0
	let observation = Defaults.observe(observed, options: []) { _ in deliveries += 1 }
	let iterations = 2_000

	let alone = (0..<5).map { _ in time(iterations) { suite[observed] = $0 } }

	// Optional keys register no default, so Foundation's registration domain stays as it was.
	let others = (0..<10_000).map { Defaults.Key<Int?>("other\($0)", suite: suite) }
	let otherObservations = others.map { Defaults.observe($0, options: []) { _ in } }
	let crowded = (0..<5).map { _ in time(iterations) { suite[observed] = $0 } }

	withExtendedLifetime((observation, otherObservations)) {}
	consume(deliveries)
	return Row(
		operation: "write + dispatch, 10k observers on other keys",
		ours: median(crowded),
		baselineName: "same, no other observers",
		baseline: median(alone),
		target: .atMost(1.2)
	)
}

/// Declaring 1,000 keys (each registers its default) against registering 1,000 defaults directly.
func registrationBenchmark() -> Row {
	let ours = makeSuite("register-ours")
	let raw = makeSuite("register-raw")
	var round = 0
	return compare("register 1k keys", iterations: 1, rounds: 5, baselineName: "1k raw register(defaults:)") { _ in
		round += 1
		for index in 0..<1_000 {
			consume(Defaults.Key<Int>("ours\(round)_\(index)", default: index, suite: ours))
		}
	} baseline: { _ in
		round += 1
		for index in 0..<1_000 {
			raw.register(defaults: ["raw\(round)_\(index)": index])
		}
	}
}
