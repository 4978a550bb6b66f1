#if Postgres
import Defaults
import DefaultsPostgres
import DefaultsTestSupport
import Foundation
import PostgresNIO

/**
One host's processes (`DefaultsPostgresTestHelper member`) sharing a connection
through a relay folder of the test's own, on a table of the test's own (so a
test may alter it), with the test's own store of the namespace beside them,
sharing nothing: what the relay's faults are judged by.

```swift
let host = try await RelayHost()
defer { host.close() }
try await host.start(2)
```
*/
final class RelayHost {
	let table = "defaults_relay_\(UUID().uuidString.prefix(8).lowercased())"
	let namespace = PostgresTestServer.uniqueNamespace("relay")
	/// The folder the members share their connection in (the relay's own folder is made inside it).
	let sharing: URL
	private let root: URL
	private let store: Defaults.PostgresRemoteStore
	private(set) var members: [ChildProcess] = []
	private var lastStamp: Int64 = 0

	init() async throws {
		root = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-relay-host-\(UUID().uuidString)", isDirectory: true)
		sharing = root.appendingPathComponent("sharing", isDirectory: true)
		try FileManager.default.createDirectory(at: sharing, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
		var options = PostgresTestServer.quickOptions
		options.table = table
		options.operationTimeout = .seconds(15)
		store = try PostgresTestServer.store(namespace: namespace, device: "relay-test", options: options)
		// Creates the table before any member starts.
		_ = try await store.entries()
	}

	/// Starts `count` members, each its own suite, and waits until each has synced once and written its key.
	func start(_ count: Int, environment extra: [String: String] = [:]) async throws {
		for _ in 0..<count {
			let name = "member\(members.count)"
			let environment = PostgresTestServer.childEnvironment(overriding: [
				"XDG_CONFIG_HOME": root.appendingPathComponent(name).path,
				"DEFAULTS_PG_TABLE": table,
				"DEFAULTS_PG_SHARING": "folder:\(sharing.path)",
			].merging(extra) { $1 })
			members.append(try ChildProcess("DefaultsPostgresTestHelper", ["member", namespace, "com.example.relay.\(UUID().uuidString)", name, "120"], environment: environment))
		}

		for (index, member) in members.enumerated() {
			guard member.waitForLine(timeout: 60, where: { $0 == "ready" }) != nil else {
				throw Failure(description: "member\(index) was not ready within 60 s: \(member.errorOutputText)")
			}
		}

		guard await waitUntilTableHolds(Dictionary(uniqueKeysWithValues: members.indices.map { ("member\($0)", 1) }), timeout: .seconds(30)) == nil else {
			throw Failure(description: "the members' first writes did not reach the table")
		}
	}

	struct Failure: Error, CustomStringConvertible {
		let description: String
	}

	/// The relay's own folder (`nil` before a member made it).
	var relayFolder: URL? {
		let names = (try? FileManager.default.contentsOfDirectory(atPath: sharing.path)) ?? []
		return names.count == 1 ? sharing.appendingPathComponent(names[0], isDirectory: true) : nil
	}

	/// Asks every member for one more write of its key (SIGUSR1); what each key should hold now.
	func writeInEveryMember(_ written: inout [String: Int]) {
		for (index, member) in members.enumerated() {
			written["member\(index)", default: 1] += 1
			member.send(SIGUSR1)
		}
	}

	/// Publishes `shared = value` from the test's own store, stamped like a device's write made now.
	func publishShared(_ value: Int) async throws {
		let now = HybridLogicalClock.systemMilliseconds()
		lastStamp = max(now, lastStamp + 1)
		try await store.publish(["shared": Defaults.RemoteEntry(value: Defaults.AnySerializable(value), timestamp: Defaults.SyncTimestamp(milliseconds: lastStamp, counter: 0, device: "relay-test"))])
	}

	/// The members that have not printed `saw <value>` within `timeout`, by index.
	func membersThatMissed(_ value: Int, timeout: Duration) async -> [Int] {
		let deadline = ContinuousClock.now + timeout
		while true {
			let missing = members.indices.filter { !members[$0].receivedLines.contains("saw \(value)") }
			if missing.isEmpty || ContinuousClock.now >= deadline {
				return missing
			}

			try? await Task.sleep(for: .milliseconds(100))
		}
	}

	/// The table's entries of the namespace.
	func entries() async throws -> [String: Defaults.RemoteEntry] {
		try await store.entries()
	}

	/// Waits until the table holds `expected` (key → Int value); `nil` when it does, else what differs.
	func waitUntilTableHolds(_ expected: [String: Int], timeout: Duration) async -> String? {
		let deadline = ContinuousClock.now + timeout
		while true {
			let entries = (try? await store.entries()) ?? [:]
			let wrong = expected.filter { entries[$0.key]?.value?.get(Int.self) != $0.value }
			if wrong.isEmpty {
				return nil
			}

			if ContinuousClock.now >= deadline {
				return wrong.keys.sorted().map { "\($0) = \(entries[$0]?.value?.get(Int.self).map(String.init) ?? "absent") (expected \(expected[$0]!))" }.joined(separator: ", ")
			}

			try? await Task.sleep(for: .milliseconds(200))
		}
	}

	/// Runs `sql` on the test server with `$T` replaced by the table's qualified name.
	func execute(_ sql: String) async throws {
		try await PostgresTestServer.execute(PostgresQuery(unsafeSQL: sql.replacingOccurrences(of: "$T", with: "public.\(table)")))
	}

	/// Every member's standard error, for a failure message.
	var errorOutput: String {
		members.enumerated().map { "member\($0.offset): \($0.element.errorOutputText.suffix(1_500))" }.joined(separator: "\n")
	}

	/// Kills the members, drops the table and removes the folders.
	func close() {
		for member in members {
			member.kill()
		}

		members = []
		// The relay's folder may be one the test made unwritable or untrusted.
		chmod(sharing.path, 0o700)
		relayFolder.map { _ = chmod($0.path, 0o700) }
		try? FileManager.default.removeItem(at: root)
		let table = table
		Task.detached { try? await PostgresTestServer.execute(PostgresQuery(unsafeSQL: "DROP TABLE IF EXISTS public.\(table)")) }
	}
}
#endif
