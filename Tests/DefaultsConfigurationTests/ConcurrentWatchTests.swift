#if Configuration
import Configuration
import Defaults
import DefaultsConfiguration
import DefaultsTestSupport
import Foundation
import Testing

@Suite("DefaultsProvider watchers under concurrent writes")
struct ConcurrentWatchTests {
	/// Writes per thread; `DEFAULTS_CONFIG_WATCH_ROUNDS` raises it.
	static let rounds = TestEnvironment.count("DEFAULTS_CONFIG_WATCH_ROUNDS", default: 300)

	/**
	Four threads write one key at once while a watcher reads it. Changes may
	be coalesced, but the watcher's last value must be the value the suite
	ends with: a slow read of an older value must never be delivered after a
	newer one.
	*/
	@Test func theLastValueDeliveredIsTheFinalOne() async throws {
		let suite = TestSuite()
		let key = Defaults.Key<Int>("counter", default: 0, suite: suite.defaults)
		let provider = DefaultsProvider(suite: suite.defaults, keyMapping: .flat())
		let rounds = Self.rounds

		let delivered = Locked<ConfigContent?>(nil)
		let caughtUp = try await withDeadline {
			try await provider.watchValue(forKey: ["counter"], type: .int) { updates in
				let consumer = Task {
					for await result in updates {
						let content = try? result.get().value?.content
						delivered.withLock { $0 = content }
					}
				}
				defer { consumer.cancel() }

				let writers = (0..<4).map { writer in
					Thread {
						for n in 1...rounds {
							Defaults[key] = writer * 1_000_000 + n
						}
					}
				}
				writers.forEach { $0.start() }
				_ = await eventually { writers.allSatisfy(\.isFinished) }

				let finalValue = ConfigContent.int(Defaults[key])
				return await eventually(timeout: .seconds(5)) { delivered.withLock { $0 } == finalValue }
			}
		}

		#expect(caughtUp == true, "the watcher's last value is the suite's final value \(Defaults[key]), not \(String(describing: delivered.withLock { $0 }))")
	}
}
#endif
