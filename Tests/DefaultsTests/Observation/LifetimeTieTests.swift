import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

private final class Owner {}

@Suite("tieToLifetime")
struct LifetimeTieTests {
	@Test func tiedObservationOutlivesItsReferenceAndStopsWithTheOwner() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let recorder = Recorder<Int>()
		var owner: Owner? = Owner()
		weak var weakObservation: ObservationHandle?

		do {
			let observation = Defaults.observation(of: key, options: []) { recorder.append($0.newValue) }
			observation.tieToLifetime(of: owner!)
			weakObservation = observation
		}

		Defaults[key] = 1
		#expect(recorder.values == [1], "alive while the owner lives")
		#expect(weakObservation != nil)

		owner = nil
		Defaults[key] = 2

		#expect(recorder.values == [1], "nothing delivered after the owner is gone")
		#expect(weakObservation == nil, "the observation is released")
		#expect(ObservedKey(key).observerCount == 0)
	}

	@Test func deadOwnersAreSweptWithoutAnotherChange() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		var owner: Owner? = Owner()
		weak var weakObservation: ObservationHandle?
		do {
			let observation = Defaults.observation(of: key, options: []) { _ in }
			observation.tieToLifetime(of: owner!)
			weakObservation = observation
		}

		owner = nil
		let unrelated = Defaults.observe(Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)) { _ in }

		#expect(weakObservation == nil)
		_ = unrelated
	}

	@Test func removeLifetimeTieMakesReleaseStopItAgain() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let recorder = Recorder<Int>()
		let owner = Owner()

		do {
			let observation = Defaults.observe(key, options: []) { recorder.append($0.newValue) }
			observation.tieToLifetime(of: owner)
			Defaults[key] = 1
			observation.removeLifetimeTie()
		}
		Defaults[key] = 2

		#expect(recorder.values == [1])
		_ = owner
	}

	@Test func invalidatingATiedObservationReleasesIt() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let owner = Owner()
		#expect(invalidatedTiedObservation(of: key, owner: owner) == nil)
		_ = owner
	}

	/// Another thread sweeping the ties while tied observations are invalidated here must not keep any of them alive.
	@Test func aSweepOnAnotherThreadDoesNotOutliveAnInvalidation() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let owner = Owner()
		let isDone = Locked(false)
		let sweeper = Thread {
			while !isDone.withLock({ $0 }) {
				LifetimeTies.sweep()
			}
		}
		sweeper.start()
		defer { isDone.withLock { $0 = true } }
		var outlived = 0
		for _ in 0..<TestEnvironment.count("DEFAULTS_STRESS_ROUNDS", default: 20) * 100 {
			outlived += invalidatedTiedObservation(of: key, owner: owner) == nil ? 0 : 1
		}

		#expect(outlived == 0)
		_ = owner
	}

	/// Observes `key`, ties the observation to `owner` and invalidates it: what is left of it once the caller lets it go (`nil`: nothing).
	private func invalidatedTiedObservation(of key: Defaults.Key<Int>, owner: Owner) -> ObservationHandle? {
		weak var weakObservation: ObservationHandle?
		do {
			let observation = Defaults.observation(of: key, options: []) { _ in }
			observation.tieToLifetime(of: owner)
			weakObservation = observation
			observation.invalidate()
		}

		return weakObservation
	}
}
