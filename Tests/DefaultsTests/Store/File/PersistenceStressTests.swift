import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// Rounds of the stress test; raise for a long run: `DEFAULTS_STRESS_ROUNDS=200 swift test --sanitize=thread --filter PersistenceStress`.
private let stressRounds = TestEnvironment.count("DEFAULTS_STRESS_ROUNDS", default: 20)

@Suite("Persistence under concurrency (run under --sanitize=thread)")
struct PersistenceStressTests {
	/**
	Threads record changes to overlapping keys while others flush, reset, read
	and observe, and other processes rewrite the same suite: every flush
	re-reads the file and diffs it against the pending changes while new ones
	are recorded.
	*/
	@Test func recordingWhileFlushingWhileOtherProcessesWrite() throws {
		let suite = TestSuite()
		let keys = (0..<4).map { _ in Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults) }
		let churners = try (0..<2).map { index in
			try HelperProcess.start(["write-keys", suite.name, "churn\(index)k", "0", "200"])
		}
		let observed = Locked(0)
		let observation = Defaults.observe(keys: keys[0], options: []) {
			observed.withLock { $0 += 1 }
		}

		for round in 0..<stressRounds {
			DispatchQueue.concurrentPerform(iterations: 8) { worker in
				for step in 0..<40 {
					let key = keys[(worker + step) % keys.count]
					switch worker % 4 {
					case 0, 1:
						Defaults[key] = round * 1000 + step + 1
					case 2:
						try? Defaults.flush(suite: suite.defaults)
					default:
						if step.isMultiple(of: 3) {
							key.reset()
						} else {
							_ = Defaults[key]
						}
					}
				}
			}
		}

		for churner in churners {
			#expect(churner.waitUntilExit(timeout: 60) == 0)
		}
		let last = Defaults.Key<Int>(suite.keyName("last"), default: 0, suite: suite.defaults)
		Defaults[last] = 1
		try Defaults.flush(suite: suite.defaults)
		observation.invalidate()

		let contents = try #require(suite.fileContents())
		#expect(contents[last.name] as? Int == 1)
		for key in keys {
			#expect(contents[key.name] as? Int == (Defaults[key] == 0 ? nil : Defaults[key]), "the file agrees with memory for \(key.name)")
		}
		#expect(contents.keys.filter { $0.hasPrefix("churn") }.count == 400, "no key another process wrote is lost")
		#expect(observed.withLock { $0 } > 0)
	}
}
