import Defaults
import DefaultsMacros
import DefaultsTesting
import Foundation
import Observation
import Testing

/// A key on the standard suite, declared as an app declares it.
extension Defaults.Keys {
	fileprivate static let isolatedLevel = Key<Int>("observableDefaultIsolatedLevel", default: 1)
}

@Observable
private final class IsolatedLevelModel {
	@ObservableDefault(.isolatedLevel)
	@ObservationIgnored
	var level: Int
}

@Suite("@ObservableDefault inside isolated tests")
struct ObservableDefaultIsolationTests {
	@Test(.isolatedDefaults, arguments: 0..<8)
	func hearsOnlyItsTestsChanges(index: Int) {
		let model = IsolatedLevelModel()
		#expect(model.level == 1)

		let changes = Locked(0)
		withObservationTracking {
			_ = model.level
		} onChange: {
			changes.withLock { $0 += 1 }
		}

		// Another test's copy, and the real suite from a thread outside any isolation: not heard.
		IsolatedDefaults().run { Defaults[.isolatedLevel] = 100 }
		let done = DispatchSemaphore(value: 0)
		Thread {
			Defaults[.isolatedLevel] = Defaults[.isolatedLevel]
			done.signal()
		}.start()
		done.wait()
		#expect(changes.withLock { $0 } == 0)

		Defaults[.isolatedLevel] = index + 10
		#expect(changes.withLock { $0 } == 1)
		#expect(model.level == index + 10)
	}
}
