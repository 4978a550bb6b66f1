import Defaults
import Foundation

/**
Checks a `Defaults.RemoteStore` against the rules every store must follow,
so each store (the in-memory one, the shared folder, PostgreSQL, your own) is
held to the same contract.

`store` and `peer` are two handles on the same remote, as two devices would
hold them (for a store shared in memory, pass the same instance twice). The
check writes only keys under a fresh random prefix, so it can run on a remote
that holds other data. It returns one line per broken rule; an empty array
means the store conforms.

```swift
// Two devices' handles on one shared folder.
let folder = URL(fileURLWithPath: "/mnt/shared/settings")
let laptop = try Defaults.SharedFolderRemoteStore(folder: folder, device: "laptop")
let desktop = try Defaults.SharedFolderRemoteStore(folder: folder, device: "desktop")
let violations = await RemoteStoreConformance.violations(of: laptop, peer: desktop)
#expect(violations.isEmpty, "\(violations)")
```
*/
public enum RemoteStoreConformance {
	/**
	Runs every rule against `store` and `peer` and returns the rules they break.

	The rules: every kind of stored value round-trips; per key, the entry with
	the later timestamp wins whatever the order of the publishes, including
	publishes that race; a publish through `peer` reaches `store`'s change feed
	within `changeTimeout`.

	```swift
	let store = InMemoryRemoteStore()
	let violations = await RemoteStoreConformance.violations(of: store, peer: store)
	#expect(violations.isEmpty, "\(violations)")
	```
	*/
	public static func violations(
		of store: any Defaults.RemoteStore,
		peer: any Defaults.RemoteStore,
		changeTimeout: Duration = .seconds(10)
	) async -> [String] {
		var check = Check(store: store, peer: peer, prefix: "conformance-\(UUID().uuidString.prefix(8))-")
		await check.roundTripsEveryKindOfValue()
		// Both publish entries the store must refuse, and a store may report each refusal: expected here, so captured, not printed.
		_ = await DiagnosticReporter.capturingAsync {
			await check.keepsTheLaterTimestampPerKey()
			await check.keepsTheLatestOfConcurrentPublishes()
		}
		await check.announcesChangesFromElsewhere(within: changeTimeout)
		return check.violations
	}

	private struct Check {
		let store: any Defaults.RemoteStore
		let peer: any Defaults.RemoteStore
		let prefix: String
		var violations: [String] = []

		private func stamp(_ milliseconds: Int64, _ counter: UInt32 = 0, _ device: String = "a") -> Defaults.SyncTimestamp {
			Defaults.SyncTimestamp(milliseconds: milliseconds, counter: counter, device: device)
		}

		private mutating func publish(_ entries: [String: Defaults.RemoteEntry], through remote: any Defaults.RemoteStore) async {
			do {
				try await remote.publish(entries)
			} catch {
				violations.append("publish failed: \(error)")
			}
		}

		private mutating func entries(of remote: any Defaults.RemoteStore) async -> [String: Defaults.RemoteEntry] {
			do {
				return try await remote.entries().filter { $0.key.hasPrefix(prefix) }
			} catch {
				violations.append("entries() failed: \(error)")
				return [:]
			}
		}

		mutating func roundTripsEveryKindOfValue() async {
			let values: [String: Defaults.AnySerializable?] = [
				"string": "dark ☾",
				"integer": Defaults.AnySerializable(Int.min),
				"double": 0.1,
				"bool": true,
				"data": Defaults.AnySerializable(Data([0, 255, 10])),
				"date": Defaults.AnySerializable(Date(timeIntervalSince1970: 1_795_336_200.125)),
				"array": Defaults.AnySerializable([1, 2, 3]),
				"dictionary": Defaults.AnySerializable(["a": "b"]),
				"tombstone": .none,
			]
			let published = Dictionary(uniqueKeysWithValues: values.map { name, value in
				(prefix + name, Defaults.RemoteEntry(value: value, timestamp: stamp(1_000)))
			})
			await publish(published, through: store)
			for remote in [store, peer] {
				let read = await entries(of: remote)
				for (key, entry) in published where read[key] != entry {
					violations.append("'\(key)' reads back as \(read[key].map { "\($0)" } ?? "nothing"), not as published: \(entry)")
				}
			}
		}

		mutating func keepsTheLaterTimestampPerKey() async {
			let key = prefix + "ordering"
			let steps: [(Defaults.SyncTimestamp, expected: Defaults.SyncTimestamp, rule: String)] = [
				(stamp(2_000), stamp(2_000), "a first entry is stored"),
				(stamp(1_999, 9, "z"), stamp(2_000), "an entry with an earlier wall clock changes nothing"),
				(stamp(2_000, 1), stamp(2_000, 1), "a higher counter at the same wall clock wins"),
				(stamp(2_000, 1, "b"), stamp(2_000, 1, "b"), "at equal wall clock and counter, the later device ID wins"),
				(stamp(2_000, 1, "a"), stamp(2_000, 1, "b"), "at equal wall clock and counter, an earlier device ID changes nothing"),
				(stamp(2_001), stamp(2_001), "a later wall clock wins"),
			]
			for (offered, expected, rule) in steps {
				await publish([key: Defaults.RemoteEntry(value: Defaults.AnySerializable(offered.description), timestamp: offered)], through: peer)
				let stored = await entries(of: store)[key]
				if stored?.timestamp != expected || stored?.value != Defaults.AnySerializable(expected.description) {
					violations.append("\(rule): offered \(offered), the store holds \(stored.map { "\($0.timestamp)" } ?? "nothing"), expected \(expected)")
				}
			}

			// One publish, one key newer and one older: each key is decided on its own.
			let other = prefix + "ordering-other"
			await publish([other: Defaults.RemoteEntry(value: "new", timestamp: stamp(5_000))], through: store)
			await publish([
				key: Defaults.RemoteEntry(value: "newer", timestamp: stamp(3_000)),
				other: Defaults.RemoteEntry(value: "older", timestamp: stamp(4_000)),
			], through: peer)
			let read = await entries(of: store)
			if read[key]?.value != "newer" || read[other]?.value != "new" {
				violations.append("a publish of several keys is decided key by key: read \(read[key]?.value.map { "\($0)" } ?? "nil") and \(read[other]?.value.map { "\($0)" } ?? "nil")")
			}
		}

		mutating func keepsTheLatestOfConcurrentPublishes() async {
			let key = prefix + "race"
			let count = 24
			let failures = await withTaskGroup(of: String?.self) { group in
				for index in (0..<count).shuffled() {
					let remote = index.isMultiple(of: 2) ? store : peer
					let timestamp = stamp(10_000 + Int64(index), 0, "device\(index % 3)")
					group.addTask {
						do {
							try await remote.publish([key: Defaults.RemoteEntry(value: Defaults.AnySerializable(index), timestamp: timestamp)])
							return nil
						} catch {
							return "a concurrent publish failed: \(error)"
						}
					}
				}

				return await group.reduce(into: [String]()) { failures, failure in
					if let failure {
						failures.append(failure)
					}
				}
			}
			violations += failures
			let stored = await entries(of: peer)[key]
			if stored?.value != Defaults.AnySerializable(count - 1) {
				violations.append("after \(count) concurrent publishes the latest (\(count - 1)) must win; the store holds \(stored.map { "\($0)" } ?? "nothing")")
			}
		}

		mutating func announcesChangesFromElsewhere(within timeout: Duration) async {
			let key = prefix + "announced"
			let stream = store.changes()
			let announced = Locked(false)
			let listener = Task {
				for await keys in stream where keys.isEmpty || keys.contains(key) {
					announced.withLock { $0 = true }
					return
				}
			}
			defer { listener.cancel() }

			// A store may start its feed asynchronously: keep publishing newer entries until one is announced.
			let start = ContinuousClock.now
			var attempt: Int64 = 0
			while ContinuousClock.now - start < timeout {
				attempt += 1
				await publish([key: Defaults.RemoteEntry(value: Defaults.AnySerializable("v\(attempt)"), timestamp: stamp(20_000 + attempt))], through: peer)
				for _ in 0..<25 {
					if announced.withLock({ $0 }) {
						return
					}

					try? await Task.sleep(for: .milliseconds(10))
				}
			}

			violations.append("changes() announced nothing within \(timeout) of a publish from elsewhere")
		}
	}
}
