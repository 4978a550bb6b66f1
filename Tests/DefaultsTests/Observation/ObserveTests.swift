import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

@Suite("observe: typed changes from every write path")
struct ObserveTests {
	private struct Change: Equatable {
		let old: Int
		let new: Int
		let isPrior: Bool
	}

	private func observeChanges(
		_ key: Defaults.Key<Int>,
		options: Defaults.ObservationOptions = []
	) -> (some Defaults.Observation, Recorder<Change>) {
		let recorder = Recorder<Change>()
		let observation = Defaults.observe(key, options: options) { change in
			recorder.append(Change(old: change.oldValue, new: change.newValue, isPrior: change.isPrior))
		}
		return (observation, recorder)
	}

	@Test func initialIsDeliveredBeforeObserveReturns() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 1, suite: suite.defaults)
		Defaults[key] = 5
		let (observation, recorder) = observeChanges(key, options: [.initial])
		#expect(recorder.values == [Change(old: 1, new: 5, isPrior: false)])
		_ = observation
	}

	@Test func eachWriteIsDeliveredOnceWithOldAndNewValues() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 1, suite: suite.defaults)
		let (observation, recorder) = observeChanges(key)
		Defaults[key] = 2
		Defaults[key] = 2
		Defaults[key] += 1
		#expect(recorder.values == [
			Change(old: 1, new: 2, isPrior: false),
			Change(old: 2, new: 2, isPrior: false),
			Change(old: 2, new: 3, isPrior: false),
		])
		_ = observation
	}

	@Test func everyWritePathIsObserved() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let (observation, recorder) = observeChanges(key)

		Defaults[key] = 1
		suite.defaults[key] = 2
		UserDefaults(suiteName: suite.name)![key] = 3   // another object for the same suite
		key.reset()
		Defaults[key] = 4
		Defaults.reset(key)
		Defaults[key] = 5
		Defaults.reset([key])
		Defaults[key] = 6
		Defaults.reset(key.name, suite: suite.defaults)
		Defaults[key] = 7
		Defaults.removeAll(suite: suite.defaults)
		Defaults[key] = 8
		suite.defaults.removeAll()
		let wrapper = Default(key)
		wrapper.wrappedValue = 9
		wrapper.reset()

		#expect(recorder.values.map(\.new) == [1, 2, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0, 9, 0])
		_ = observation
	}

	@Test func priorIsDeliveredBeforeTheChange() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let seenInPrior = Recorder<Int>()
		let observation = Defaults.observe(key, options: [.prior]) { change in
			if change.isPrior {
				seenInPrior.append(suite.defaults[key])
			}
		}
		let (second, recorder) = observeChanges(key, options: [.prior])

		Defaults[key] = 7

		#expect(recorder.values == [Change(old: 0, new: 7, isPrior: true), Change(old: 0, new: 7, isPrior: false)])
		#expect(seenInPrior.values == [0], "the prior callback runs before the value is stored")
		_ = (observation, second)
	}

	@Test func optionalKeyChangesFallBackToNil() {
		let suite = TestSuite()
		let key = Defaults.Key<String?>(suite.keyName(), suite: suite.defaults)
		let recorder = Recorder<[String?]>()
		let observation = Defaults.observe(key, options: []) { recorder.append([$0.oldValue, $0.newValue]) }
		Defaults[key] = "a"
		Defaults[key] = nil
		#expect(recorder.values == [[nil, "a"], ["a", nil]])
		_ = observation
	}

	@Test func undecodableStoredValueIsDeliveredAsTheDefault() {
		let suite = TestSuite()
		let name = suite.keyName()
		let key = Defaults.Key<Int>(name, default: 3, suite: suite.defaults)
		suite.defaults.setRawAndSynchronize("garbage", forKey: name)
		let recorder = Recorder<Int>()
		let reported = diagnostics {
			let observation = Defaults.observe(key) { recorder.append($0.newValue) }
			Defaults[key] = 4
			_ = observation
		}

		#expect(recorder.values == [3, 4])
		#expect(reported.allSatisfy { $0.kind == .undecodableValue && $0.key == name })
		#expect(!reported.isEmpty)
	}

	@Test func otherKeysAndSuitesAreNotDelivered() {
		let suite = TestSuite()
		let other = TestSuite()
		let name = suite.keyName()
		let key = Defaults.Key<Int>(name, default: 0, suite: suite.defaults)
		let otherKey = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let sameNameOtherSuite = Defaults.Key<Int>(name, default: 0, suite: other.defaults)
		let (observation, recorder) = observeChanges(key)

		Defaults[otherKey] = 1
		Defaults[sameNameOtherSuite] = 1

		#expect(recorder.values.isEmpty)
		_ = observation
	}

	@Test func invalidateAndReleaseStopObserving() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let recorder = Recorder<Int>()

		let observation = Defaults.observe(key, options: []) { recorder.append($0.newValue) }
		Defaults[key] = 1
		observation.invalidate()
		observation.invalidate()
		Defaults[key] = 2

		do {
			let released = Defaults.observe(key, options: []) { recorder.append($0.newValue * 10) }
			Defaults[key] = 3
			_ = released
		}
		Defaults[key] = 4

		#expect(recorder.values == [1, 30])
		#expect(ObservedKey(key).observerCount == 0)
	}

	@Test func removingAnObserverInsideItsOwnCallbackIsSafe() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let recorder = Recorder<Int>()
		nonisolated(unsafe) var observation: (any Defaults.Observation)?
		observation = Defaults.observe(key, options: []) { change in
			recorder.append(change.newValue)
			observation?.invalidate()
			observation = nil
		}

		Defaults[key] = 1
		Defaults[key] = 2

		#expect(recorder.values == [1])
		#expect(ObservedKey(key).observerCount == 0)
	}

	@Test func observerMayWriteAnotherKeyFromItsCallback() {
		let suite = TestSuite()
		let source = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let mirror = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let mirrored = Recorder<Int>()
		let first = Defaults.observe(source, options: []) { Defaults[mirror] = $0.newValue * 2 }
		let second = Defaults.observe(mirror, options: []) { mirrored.append($0.newValue) }

		Defaults[source] = 21

		#expect(Defaults[mirror] == 42)
		#expect(mirrored.values == [42])
		_ = (first, second)
	}

	@Test func observeSeveralKeys() {
		let suite = TestSuite()
		let a = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let b = Defaults.Key<String>(suite.keyName(), default: "", suite: suite.defaults)
		let calls = Recorder<Void>()
		let observation = Defaults.observe(keys: a, b) { calls.append(()) }
		#expect(calls.count == 1, "initial")
		Defaults[a] = 1
		Defaults[b] = "x"
		Defaults.reset(a, b)
		#expect(calls.count == 5)
		observation.invalidate()
		Defaults[a] = 2
		#expect(calls.count == 5)
	}

	@Test func keyChangeIsEquatableAndKeepsCompatibilityFields() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let changes = Recorder<Defaults.KeyChange<Int>>()
		let observation = Defaults.observe(key, options: []) { changes.append($0) }
		Defaults[key] = 1
		let change = try! #require(changes.values.first)
		#expect(change.kind == .setting)
		#expect(change.indexes == nil)
		#expect(change == change)
		_ = observation
	}
}
