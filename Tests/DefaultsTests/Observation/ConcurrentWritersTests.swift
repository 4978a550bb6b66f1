import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

private let writerKey = "defaults-tests.concurrent-writer"

@Suite("Threads writing one key: each change reports its own write")
struct ConcurrentWritersTests {
	/// A nonisolated handler runs on the writing thread right after its write, so it can tell which write it is told about.
	@Test func eachChangeCarriesTheValueItsWriteMade() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let writesPerThread = TestEnvironment.count("DEFAULTS_STRESS_ROUNDS", default: 2_000)
		let mismatches = Locked<[String]>([])
		let observation = Defaults.observe(key, options: [], isolation: nil) { @Sendable change in
			let writer = Thread.current.threadDictionary[writerKey] as? Int ?? -1
			if change.newValue / 1_000_000 != writer {
				mismatches.withLock { $0.append("thread \(writer) was told about \(change.newValue)") }
			}
		}
		defer { observation.invalidate() }

		let finished = DispatchGroup()
		for writer in 1...2 {
			finished.enter()
			let thread = Thread {
				Thread.current.threadDictionary[writerKey] = writer
				for step in 1...writesPerThread {
					Defaults[key] = writer * 1_000_000 + step
				}
				finished.leave()
			}
			thread.start()
		}

		#expect(finished.wait(timeout: .now() + 120) == .success)
		let found = mismatches.withLock { $0 }
		#expect(found.count == 0, "\(found.count) changes reported another thread's write, first: \(found.prefix(3))")
	}
}
