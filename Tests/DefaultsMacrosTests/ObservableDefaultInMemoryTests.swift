import Defaults
import DefaultsMacros
import DefaultsTesting
import Foundation
import Observation
import Testing

/// A key in an in-memory suite, as a user's test would declare it.
// `UserDefaults` is not `Sendable` in swift-corelibs-foundation; `InMemoryDefaults` guards its state with a lock.
nonisolated(unsafe) private let inMemorySuite = InMemoryDefaults()

extension Defaults.Keys {
	fileprivate static let inMemoryLevel = Key<Int>("level", default: 1, suite: inMemorySuite)
}

@Observable
private final class LevelModel {
	@ObservableDefault(.inMemoryLevel)
	@ObservationIgnored
	var level: Int
}

@Suite("@ObservableDefault with an in-memory suite")
struct ObservableDefaultInMemoryTests {
	@Test func readsWritesAndTracksChangesMadeElsewhere() {
		let model = LevelModel()
		#expect(model.level == 1)

		let changed = Locked(0)
		withObservationTracking {
			_ = model.level
		} onChange: {
			changed.withLock { $0 += 1 }
		}

		inMemorySuite[.inMemoryLevel] = 5
		#expect(changed.withLock { $0 } == 1)
		#expect(model.level == 5)

		model.level = 7
		#expect(inMemorySuite.integer(forKey: "level") == 7)
	}
}
