import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// Rounds of the stress test; raise it for a long run: `DEFAULTS_STRESS_ROUNDS=200 swift test --sanitize=thread --filter Stress`.
private let stressRounds = TestEnvironment.count("DEFAULTS_STRESS_ROUNDS", default: 20)

@Suite("Observation under concurrency (run under --sanitize=thread)")
struct ConcurrencyStressTests {
	@Test func observersAddedRemovedAndFiredFromManyThreads() {
		let suite = TestSuite()
		let keys = (0..<8).map { _ in Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults) }
		let mirror = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let delivered = Recorder<Int>()

		// A long-lived observer that writes another key from its callback.
		let relay = Defaults.observe(keys: keys[0], options: []) {
			Defaults[mirror] += 1
		}

		for _ in 0..<stressRounds {
			DispatchQueue.concurrentPerform(iterations: 8) { worker in
				let key = keys[worker]
				for step in 0..<50 {
					let observation = Defaults.observe(key, options: step.isMultiple(of: 2) ? [.initial] : [.prior]) { change in
						delivered.append(change.newValue)
					}
					Defaults[key] = step
					Defaults[keys[(worker + 1) % keys.count]] = -step
					if step.isMultiple(of: 5) {
						Defaults.withoutPropagation {
							Defaults[key] = step * 2
						}
					}
					observation.invalidate()
				}
			}
		}

		relay.invalidate()
		for key in keys + [mirror] {
			#expect(ObservedKey(key).observerCount == 0)
		}
		#expect(Defaults[mirror] > 0)
		#expect(delivered.count > 0)
	}

	@Test func selfRemovingObserversOnManyThreads() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let delivered = Recorder<Int>()

		for _ in 0..<stressRounds {
			DispatchQueue.concurrentPerform(iterations: 8) { worker in
				final class Box: @unchecked Sendable {
					var observation: (any Defaults.Observation)?
				}
				let box = Box()
				let lock = NSLock()
				lock.withLock {
					box.observation = Defaults.observe(key, options: []) { change in
						delivered.append(change.newValue)
						lock.withLock {
							box.observation?.invalidate()
						}
					}
				}
				Defaults[key] = worker
			}
		}

		#expect(ObservedKey(key).observerCount == 0)
		#expect(delivered.count >= 8 * stressRounds)
	}
}
