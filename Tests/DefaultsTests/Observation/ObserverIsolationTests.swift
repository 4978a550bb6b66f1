import Dispatch
import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// Writes per writer in the isolation tests; raise it for a long run: `DEFAULTS_OBSERVER_WRITES=5000`.
private let writesPerWriter = TestEnvironment.count("DEFAULTS_OBSERVER_WRITES", default: 200)

/// Main-actor state changed by observers, as an app's view model would be.
@MainActor
private final class MainActorModel {
	private(set) var changes: [String: [Defaults.KeyChange<Int>]] = [:]
	private(set) var log: [String] = []
	private var observations: [any Defaults.Observation] = []

	func observe(_ key: Defaults.Key<Int>) {
		let observation = Defaults.observe(key, options: []) { [weak self] change in
			// Both trap when the handler runs anywhere but the main actor.
			MainActor.preconditionIsolated()
			dispatchPrecondition(condition: .onQueue(.main))
			self?.changes[key.name, default: []].append(change)
		}
		observations.append(observation)
	}

	/// Writes `key` once from its own handler, to show the nested change is delivered after the handler returns.
	func observeWritingItsOwnKey(_ key: Defaults.Key<Int>) {
		let observation = Defaults.observe(key, options: []) { [weak self] change in
			self?.log.append("begin \(change.newValue)")
			if change.newValue == 1 {
				Defaults[key] = 2
			}
			self?.log.append("end \(change.newValue)")
		}
		observations.append(observation)
	}

	func values(of key: Defaults.Key<Int>) -> [Int] {
		changes[key.name, default: []].map(\.newValue)
	}

	func invalidateAll() {
		for observation in observations {
			observation.invalidate()
		}
	}
}

/// An actor observing a key, as a service object would.
private actor ActorObserver {
	private(set) var values: [Int] = []
	private var observation: (any Defaults.Observation)?

	func start(_ key: Defaults.Key<Int>) {
		observation = Defaults.observe(key) { change in
			self.preconditionIsolated()
			self.values.append(change.newValue)
		}
	}
}

private enum WriterMarker {
	@TaskLocal static var id = -1
}

/// Runs `body` on a background thread and blocks until it is done: the caller's actor cannot run meanwhile.
private func runOnBackgroundThreadAndWait(_ body: @escaping @Sendable () -> Void) {
	let done = DispatchSemaphore(value: 0)
	Thread.detachNewThread {
		body()
		done.signal()
	}
	let result = done.wait(timeout: .now() + 60)
	precondition(result == .success, "the background writer did not finish within 60 s")
}

@Suite("Observer isolation: handlers run where they were registered (run under --sanitize=thread)")
struct ObserverIsolationTests {
	@Test @MainActor func mainActorObserverGetsEveryBackgroundWriteOnTheMainActorInOrder() async {
		let suite = TestSuite()
		let soloKey = Defaults.Key<Int>(suite.keyName("solo"), default: 0, suite: suite.defaults)
		let sharedKey = Defaults.Key<Int>(suite.keyName("shared"), default: 0, suite: suite.defaults)
		let model = MainActorModel()
		model.observe(soloKey)
		model.observe(sharedKey)

		let writers = (0..<3).map { writer in
			Task.detached {
				for step in 1...writesPerWriter {
					if writer == 0 {
						Defaults[soloKey] = step
					} else {
						Defaults[sharedKey] = writer * 1_000_000 + step
					}
				}
			}
		}
		for writer in writers {
			await writer.value
		}

		let allArrived = await eventually {
			model.values(of: soloKey).count == writesPerWriter && model.values(of: sharedKey).count == 2 * writesPerWriter
		}
		#expect(allArrived)

		// One writer: every change, in order, each one's old value the previous one's new value.
		#expect(model.values(of: soloKey) == Array(1...writesPerWriter))
		let soloChanges = model.changes[soloKey.name, default: []]
		#expect(soloChanges.map(\.oldValue) == Array(0..<writesPerWriter))

		// Two writers of one key: each writer's changes arrive in the order it made them.
		let shared = model.values(of: sharedKey)
		for writer in 1...2 {
			let mine = shared.filter { $0 / 1_000_000 == writer }.map { $0 % 1_000_000 }
			#expect(mine == Array(1...writesPerWriter))
		}

		model.invalidateAll()
	}

	@Test @MainActor func mainThreadWriteIsDeliveredBeforeTheWriteReturns() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let model = MainActorModel()
		model.observe(key)

		Defaults[key] = 7
		#expect(model.values(of: key) == [7])
		Defaults[key] = 8
		#expect(model.values(of: key) == [7, 8])
		model.invalidateAll()
	}

	@Test @MainActor func backgroundWritesAreQueuedForTheMainActorAndDroppedOnInvalidate() async {
		let suite = TestSuite()
		let delivered = Defaults.Key<Int>(suite.keyName("delivered"), default: 0, suite: suite.defaults)
		let dropped = Defaults.Key<Int>(suite.keyName("dropped"), default: 0, suite: suite.defaults)
		let model = MainActorModel()
		let keeper = MainActorModel()
		model.observe(dropped)
		keeper.observe(delivered)

		// The main actor is blocked while these writes happen, so none can have been delivered yet.
		runOnBackgroundThreadAndWait {
			for step in 1...5 {
				Defaults[dropped] = step
				Defaults[delivered] = step
			}
		}
		#expect(model.values(of: dropped).isEmpty)
		#expect(keeper.values(of: delivered).isEmpty)

		model.invalidateAll()
		#expect(await eventually { keeper.values(of: delivered) == [1, 2, 3, 4, 5] })
		#expect(model.values(of: dropped).isEmpty, "changes queued before invalidate() are not delivered after it")
		keeper.invalidateAll()
	}

	@Test @MainActor func aMainActorHandlerWritingItsOwnKeyIsNotReentered() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let model = MainActorModel()
		model.observeWritingItsOwnKey(key)

		Defaults[key] = 1

		#expect(model.log == ["begin 1", "end 1", "begin 2", "end 2"])
		#expect(Defaults[key] == 2)
		model.invalidateAll()
	}

	@Test func actorObserverRunsOnItsActorInOrder() async {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let observer = ActorObserver()
		await observer.start(key)
		#expect(await observer.values == [0], "the initial value is delivered before observe returns")

		await Task.detached {
			for step in 1...writesPerWriter {
				Defaults[key] = step
			}
		}.value

		let expected = [0] + Array(1...writesPerWriter)
		var values: [Int] = []
		let deadline = ContinuousClock.now + .seconds(20)
		while values != expected, ContinuousClock.now < deadline {
			values = await observer.values
			try? await Task.sleep(for: .milliseconds(2))
		}
		#expect(values == expected)
	}

	@Test func nonisolatedObserverRunsSynchronouslyOnTheWritingThread() async {
		let suite = TestSuite()
		// One key per writer: with several writers on one key, a change reports the value read just after it, which may be another writer's.
		let keys = (0..<4).map { _ in Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults) }
		let seen = Recorder<(value: Int, writer: Int)>()
		// `isolation: nil`: what a synchronous nonisolated caller gets by default; stated, since an async test may inherit its runner's isolation.
		let observations = keys.map { key in
			Defaults.observe(key, options: [], isolation: nil) { @Sendable change in
				seen.append((change.newValue, WriterMarker.id))
			}
		}

		await withTaskGroup(of: Void.self) { group in
			for writer in 0..<4 {
				group.addTask {
					for step in 0..<writesPerWriter {
						let value = writer * 1_000_000 + step
						WriterMarker.$id.withValue(writer) {
							Defaults[keys[writer]] = value
						}
						// Delivered before the write returned.
						#expect(seen.values.contains { $0.value == value })
					}
				}
			}
		}

		// The handler ran inside each writer's task: it saw that writer's task-local marker.
		#expect(seen.count == 4 * writesPerWriter)
		#expect(seen.values.allSatisfy { $0.writer == $0.value / 1_000_000 })
		for observation in observations {
			observation.invalidate()
		}
	}
}
