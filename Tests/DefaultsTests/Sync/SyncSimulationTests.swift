import DefaultsTesting
import DefaultsTestSupport
import Foundation
import PropertyBased
import Testing
@testable import Defaults

/**
One device's connection to the shared remote through an unreliable network:
what it publishes waits in an outbox until the test delivers it (in any
order); while partitioned it delivers nothing and reads a stale copy.
*/
private final class SimulatedLink: Defaults.RemoteStore, @unchecked Sendable {
	private struct State {
		var isPartitioned = false
		var outbox: [[String: Defaults.RemoteEntry]] = []
		var lastSeen: [String: Defaults.RemoteEntry] = [:]
	}

	let hub: InMemoryRemoteStore
	let limits = Defaults.RemoteLimits.unlimited
	private let state = Locked(State())

	init(hub: InMemoryRemoteStore) {
		self.hub = hub
	}

	var isPartitioned: Bool {
		get { state.withLock { $0.isPartitioned } }
		set { state.withLock { $0.isPartitioned = newValue } }
	}

	var pendingCount: Int {
		state.withLock { $0.outbox.count }
	}

	func entries() async throws -> [String: Defaults.RemoteEntry] {
		if isPartitioned {
			return state.withLock { $0.lastSeen }
		}

		let entries = try await hub.entries()
		state.withLock { $0.lastSeen = entries }
		return entries
	}

	func publish(_ entries: [String: Defaults.RemoteEntry]) async throws {
		state.withLock { $0.outbox.append(entries) }
	}

	/// Delivers the message at `index` of the outbox (not necessarily the oldest), unless partitioned.
	func deliver(at index: Int) async throws {
		let message = state.withLock { state -> [String: Defaults.RemoteEntry]? in
			guard !state.isPartitioned, !state.outbox.isEmpty else {
				return nil
			}

			return state.outbox.remove(at: index % state.outbox.count)
		}

		if let message {
			try await hub.publish(message)
		}
	}

	func changes() -> AsyncStream<Set<String>> {
		// The test decides when each device looks at the remote.
		AsyncStream { _ in }
	}
}

/// A wall clock the test moves, forwards or backwards.
private final class TestClock: @unchecked Sendable {
	private let now = Locked<Int64>(0)

	init(start: Int64) {
		now.withLock { $0 = start }
	}

	func advance(by milliseconds: Int64) {
		now.withLock { $0 += milliseconds }
	}

	var milliseconds: Int64 {
		now.withLock { $0 }
	}
}

@Suite("Sync simulation")
struct SyncSimulationTests {
	private static let keyCount = 3
	private static let trials = TestEnvironment.count("DEFAULTS_SYNC_TRIALS", default: 150)

	/// What happened to one key on some device: an explicit write (or a reset, `nil`) at a timestamp.
	private struct Write {
		let timestamp: Defaults.SyncTimestamp
		let value: Int?
	}

	@Test("after the network heals, every device holds the latest explicit write of every key")
	func convergence() async {
		await propertyCheck(count: Self.trials, input: Gen.int(in: 0...1_000_000).array(of: 1...60)) { operations in
			await Self.simulate(operations)
		}
	}

	private static func simulate(_ operations: [Int]) async {
		let hub = InMemoryRemoteStore()
		// Device clocks disagree by seconds; the third one sometimes jumps back.
		let clocks = [TestClock(start: 1_000_000), TestClock(start: 995_000), TestClock(start: 1_003_000)]
		let links = (0..<3).map { _ in SimulatedLink(hub: hub) }
		let suites = (0..<3).map { _ in InMemoryDefaults() }
		let synchronizers = (0..<3).map { index in
			let clock = clocks[index]
			return Synchronizer(device: "device\(index)") { clock.milliseconds }
		}
		let keys = suites.map { suite in
			(0..<keyCount).map { Defaults.Key<Int>("key\($0)", default: -1, suite: suite) }
		}
		for device in 0..<3 {
			synchronizers[device].add(keys[device])
			synchronizers[device].remote = links[device]
		}

		var history: [[Write]] = Array(repeating: [], count: keyCount)
		for operation in operations {
			let device = operation % 3
			let key = (operation / 3) % keyCount
			let synchronizer = synchronizers[device]
			switch (operation / 9) % 7 {
			case 0, 1:
				keys[device][key].suite[keys[device][key]] = operation
				history[key].append(Write(timestamp: synchronizer.timestamp(of: keys[device][key])!, value: operation))
			case 2:
				keys[device][key].reset()
				history[key].append(Write(timestamp: synchronizer.timestamp(of: keys[device][key])!, value: nil))
			case 3:
				try? await links[device].deliver(at: operation / 63)
			case 4:
				links[device].isPartitioned.toggle()
			case 5:
				synchronizer.refresh()
			default:
				clocks[device].advance(by: device == 2 && operation.isMultiple(of: 2) ? -2_000 : Int64(operation % 50))
			}

			await synchronizer.waitForSyncCompletion()
		}

		// Heal: every link reconnects, every message is delivered, every device looks again, until nothing moves.
		for link in links {
			link.isPartitioned = false
		}

		for _ in 0..<4 {
			for link in links {
				while link.pendingCount > 0 {
					try? await link.deliver(at: link.pendingCount - 1)
				}
			}

			for synchronizer in synchronizers {
				synchronizer.refresh()
				await synchronizer.waitForSyncCompletion()
			}
		}

		for key in 0..<keyCount {
			let latest = history[key].max { $0.timestamp < $1.timestamp }
			let expected = latest.map { $0.value ?? -1 } ?? -1
			for device in 0..<3 {
				let read = suites[device][keys[device][key]]
				#expect(read == expected, "key\(key) on device\(device): \(read), expected \(expected) from \(history[key].map { "\($0.value.map(String.init) ?? "reset")@\($0.timestamp)" })")
			}
		}
	}
}
