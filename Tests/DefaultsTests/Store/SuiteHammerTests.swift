import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

private let hammerRounds = TestEnvironment.count("DEFAULTS_STRESS_ROUNDS", default: 20)

/// One suite object used from many threads at once: run under `--sanitize=thread` (the test command's second pass).
@Suite("One suite, many threads (run under --sanitize=thread)")
struct SuiteHammerTests {
	@Test func readsWritesResetsRemoveAllObservationAndFlushes() throws {
		let suite = TestSuite()
		let numbers = (0..<4).map { Defaults.Key<Int>(suite.keyName("n\($0)"), default: -1, suite: suite.defaults) }
		let window = Defaults.Key<SampleTime>(suite.keyName("time"), default: SampleTime(hour: 0, minute: 0), suite: suite.defaults)
		let heard = Recorder<Int>()
		let observation = Defaults.observe(keys: numbers[0], window) { heard.append(0) }
		defer { observation.invalidate() }

		for _ in 0..<hammerRounds {
			DispatchQueue.concurrentPerform(iterations: 6) { worker in
				for step in 0..<100 {
					switch worker {
					case 0, 1:
						Defaults[numbers[step % numbers.count]] = step
						Defaults[window] = SampleTime(hour: step % 24, minute: worker)
					case 2:
						let value = Defaults[numbers[step % numbers.count]]
						#expect(value >= -1 && value < 100)
						_ = Defaults[window].hour
					case 3:
						if step.isMultiple(of: 10) {
							Defaults.removeAll(suite: suite.defaults)
						} else {
							Defaults.reset(numbers[step % numbers.count])
						}
					case 4:
						let temporary = Defaults.observe(numbers[1], options: [.initial, .prior]) { _ in }
						temporary.invalidate()
					default:
						if step.isMultiple(of: 20) {
							try? Defaults.flush(suite: suite.defaults)
						}
					}
				}
			}
		}

		// After the storm the suite, its file and what a new process reads all agree.
		Defaults[numbers[0]] = 42
		try Defaults.flush(suite: suite.defaults)
		#expect(Defaults[numbers[0]] == 42)
		#expect(suite.fileContents()?[numbers[0].name] as? Int == 42)
		#expect(heard.count > 0)
	}
}
