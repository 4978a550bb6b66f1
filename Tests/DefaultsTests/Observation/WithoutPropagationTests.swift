import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

@Suite("withoutPropagation")
struct WithoutPropagationTests {
	@Test func changesInsideReachNoObserver() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let recorder = Recorder<Int>()
		let observation = Defaults.observe(key, options: []) { recorder.append($0.newValue) }

		Defaults.withoutPropagation {
			Defaults[key] = 1
			key.reset()
		}
		Defaults[key] = 2

		#expect(recorder.values == [2])
		_ = observation
	}

	@Test func nestingRestoresTheOuterState() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let recorder = Recorder<Int>()
		let observation = Defaults.observe(key, options: []) { recorder.append($0.newValue) }

		Defaults.withoutPropagation {
			Defaults.withoutPropagation {
				Defaults[key] = 1
			}
			Defaults[key] = 2
		}
		Defaults[key] = 3

		#expect(recorder.values == [3])
		_ = observation
	}

	@Test func observerCanRewriteItsOwnKeyWithoutRecursion() {
		let suite = TestSuite()
		let key = Defaults.Key<String>(suite.keyName(), default: "", suite: suite.defaults)
		let calls = Recorder<String>()
		let observation = Defaults.observe(key, options: []) { change in
			calls.append(change.newValue)
			Defaults.withoutPropagation {
				Defaults[key] = change.newValue.uppercased()
			}
		}

		Defaults[key] = "abc"

		#expect(Defaults[key] == "ABC")
		#expect(calls.values == ["abc"])
		_ = observation
	}

	@Test func otherThreadsStillPropagate() async {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let recorder = Recorder<Int>()
		let observation = Defaults.observe(key, options: []) { recorder.append($0.newValue) }

		let otherThreadWrote = DispatchSemaphore(value: 0)
		Defaults.withoutPropagation {
			Thread.detachNewThread {
				Defaults[key] = 5
				otherThreadWrote.signal()
			}
			otherThreadWrote.wait()
		}

		#expect(recorder.values == [5])
		_ = observation
	}

	@Test func returnsTheClosureResult() throws {
		let value = Defaults.withoutPropagation { 42 }
		#expect(value == 42)
		struct Failure: Error {}
		#expect(throws: Failure.self) {
			try Defaults.withoutPropagation { throw Failure() }
		}
	}
}
