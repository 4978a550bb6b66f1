#if Postgres
import Defaults
import DefaultsPostgres
import DefaultsTestSupport
import Foundation
import Testing

/**
A fleet: processes (`DefaultsPostgresTestHelper member`) on simulated hosts, each host
its own preferences folder, syncing one namespace through the small cluster with the
store's default connection sharing; and the test's own view of that namespace and of
the connections the members hold.

Everything the test itself needs from the server (a store for the table, the
connection sampler) is connected before the first member starts: a fleet that fills
the server must not blind the test that judges it.

```swift
let fleet = try await PostgresFleet(hosts: 10)
defer { fleet.close() }
try fleet.start(60)
```
*/
final class PostgresFleet {
	struct Member: CustomStringConvertible {
		/// Its device name, and the name of the key it writes.
		let name: String
		let host: Int
		let process: ChildProcess

		var description: String {
			name
		}
	}

	let namespace = PostgresTestServer.uniqueNamespace("fleet")
	let suite = "com.example.fleet.\(UUID().uuidString)"
	let hostCount: Int
	/// Whether each member keeps its own suite (`<suite>.<name>`), so that its processes share no suite file: a test of the relay's own files.
	var suitePerMember = false
	/// The members the test has not killed.
	private(set) var members: [Member] = []
	/// The members' connections are named `<applicationPrefix>h<host>m<index>`, for the sampler.
	private let applicationPrefix = "fleet-\(UUID().uuidString.prefix(8))-"
	private let folder: URL
	private let lifetime: Int
	/// The test's own store of the namespace, sharing nothing: reads the table, publishes `shared`.
	private let table: Defaults.PostgresRemoteStore
	private let sampler: PostgresConnectionSampler
	private var started = 0
	private var lastStamp: Int64 = 0

	/**
	Prepares `hosts` preferences folders in a fresh temporary folder, and connects the test's store and sampler.

	Members exit on their own after `lifetime` seconds, so even a test process that dies leaves none for long.
	*/
	init(hosts: Int, lifetime: Int = 300) async throws {
		hostCount = hosts
		self.lifetime = lifetime
		folder = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-fleet-\(UUID().uuidString)", isDirectory: true)
		for host in 0..<hosts {
			try FileManager.default.createDirectory(at: Self.hostFolder(host, in: folder), withIntermediateDirectories: true)
		}

		try FileManager.default.createDirectory(at: folder.appendingPathComponent("xdg-system"), withIntermediateDirectories: true)
		var configuration = PostgresTestServer.limitedConfiguration(applicationName: "defaults-tests-fleet-table")
		// One connection, kept for the whole test.
		configuration.options.connectionIdleTimeout = .seconds(3_600)
		var options = PostgresTestServer.quickOptions
		options.connectionSharing = .none
		options.maximumConnections = 1
		options.idleConnectionTimeout = .seconds(3_600)
		options.operationTimeout = .seconds(10)
		table = try Defaults.PostgresRemoteStore(configuration: configuration, namespace: namespace, device: "fleet-test", options: options)
		do {
			// Creates the table, and opens the connection the test keeps.
			_ = try await table.entries()
			sampler = try await PostgresConnectionSampler.start(prefix: applicationPrefix)
		} catch {
			try? FileManager.default.removeItem(at: folder)
			throw error
		}
	}

	private static func hostFolder(_ host: Int, in folder: URL) -> URL {
		folder.appendingPathComponent("host-\(host)", isDirectory: true)
	}

	/// Starts `count` members, spread evenly over the hosts; `environment` is added to theirs (`DEFAULTS_PG_MEMBER_BUSY_MS`).
	func start(_ count: Int, environment: [String: String] = [:]) throws {
		for index in 0..<count {
			try start(onHost: index % hostCount, environment: environment)
		}
	}

	/// Starts one member on `host`.
	@discardableResult
	func start(onHost host: Int, environment extra: [String: String] = [:]) throws -> Member {
		let index = started
		started += 1
		let environment = PostgresTestServer.childEnvironment(overriding: [
			"XDG_CONFIG_HOME": Self.hostFolder(host, in: folder).path,
			"XDG_CONFIG_DIRS": folder.appendingPathComponent("xdg-system").path,
			"DEFAULTS_PG_PORT": "\(PostgresTestServer.limitedPort ?? 0)",
			"DEFAULTS_PG_APPLICATION_NAME": "\(applicationPrefix)h\(host)m\(index)",
			"DEFAULTS_PG_SHARING": "default",
		].merging(extra) { $1 })
		let name = "member\(index)"
		let process = try ChildProcess("DefaultsPostgresTestHelper", ["member", namespace, suitePerMember ? "\(suite).\(name)" : suite, name, "\(lifetime)"], environment: environment)
		let member = Member(name: name, host: host, process: process)
		members.append(member)
		return member
	}

	/// The relay folder of `host` (`nil` before a member made it).
	func relayFolder(ofHost host: Int) -> URL? {
		let files = FileManager.default.enumerator(at: Self.hostFolder(host, in: folder), includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
		return files.first { $0.lastPathComponent == "leader.lock" }?.deletingLastPathComponent()
	}

	/// The member that connects for `host` now, as the relay's copy of the namespace names it (`nil` before its first write of the copy).
	func leader(ofHost host: Int) -> Member? {
		let hostFolder = Self.hostFolder(host, in: folder)
		let files = FileManager.default.enumerator(at: hostFolder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
		guard let mirror = files.first(where: { $0.lastPathComponent == "mirror.plist" }),
		      let data = FileManager.default.contents(atPath: mirror.path),
		      let contents = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
		      let pid = (contents["leader"] as? NSNumber)?.int32Value ?? (contents["leader"] as? Int).map(Int32.init) else {
			return nil
		}

		return members.first { $0.host == host && $0.process.processIdentifier == pid }
	}

	/// Kills `member` at once (SIGKILL), as a crash would.
	func kill(_ member: Member) {
		members.removeAll { $0.name == member.name }
		member.process.kill()
	}

	/// Kills every member, stops sampling and removes the preferences folders; the peaks sampled.
	@discardableResult
	func close() -> PostgresConnectionSampler.Peaks {
		for member in members {
			member.process.kill()
		}

		members = []
		try? FileManager.default.removeItem(at: folder)
		return sampler.cancel()
	}

	/// The connections the members held, at most, so far.
	var peaks: PostgresConnectionSampler.Peaks {
		sampler.current
	}

	/// The peaks, with a sample taken now.
	func sampleConnections() async -> PostgresConnectionSampler.Peaks {
		await sampler.sampleNow()
	}

	/**
	Waits until the members hold at most `limit` connections, or `timeout` passes; the peaks, whose `latestInAll` is
	what they held last.

	After a member is killed, the one that connects for its host may change: connections opened meanwhile can take a
	few seconds to close when idle.
	*/
	func waitUntilMembersHold(atMost limit: Int, timeout: Duration = .seconds(60)) async -> PostgresConnectionSampler.Peaks {
		let deadline = ContinuousClock.now + timeout
		while true {
			let peaks = await sampler.sampleNow()
			if peaks.samples > 0 && !peaks.latestFailed && peaks.latestInAll <= limit || ContinuousClock.now >= deadline {
				return peaks
			}

			try? await Task.sleep(for: .milliseconds(250))
		}
	}

	/// Waits until each of `members` has printed a line `predicate` accepts, or `timeout` passes; those that have not.
	func waitForLine(from members: [Member], timeout: Duration, where predicate: (String) -> Bool) async -> [Member] {
		var waiting = members
		let deadline = ContinuousClock.now + timeout
		while true {
			waiting.removeAll { $0.process.receivedLines.contains(where: predicate) }
			if waiting.isEmpty || ContinuousClock.now >= deadline {
				return waiting
			}

			try? await Task.sleep(for: .milliseconds(100))
		}
	}

	/// Every member that saw `shared` become `value` within `timeout` (the issue's 60 s); those that did not.
	func waitUntilEveryMemberSaw(_ value: Int, timeout: Duration = .seconds(60)) async -> [Member] {
		await waitForLine(from: members, timeout: timeout) { $0 == "saw \(value)" }
	}

	/// Publishes `shared = value` from the test, stamped like a device's explicit write made now.
	func publishShared(_ value: Int) async throws {
		let now = Int64((Date().timeIntervalSince1970 * 1_000).rounded(.down))
		lastStamp = max(now, lastStamp + 1)
		let stamp = Defaults.SyncTimestamp(milliseconds: lastStamp, counter: 0, device: "fleet-test#\(applicationPrefix)")
		try await table.publish(["shared": Defaults.RemoteEntry(value: Defaults.AnySerializable(value), timestamp: stamp)])
	}

	/**
	Waits until the table holds `expected` (key → value), or `timeout` passes (the issue's 60 s); `nil` when it does,
	else what differs.
	*/
	func waitUntilTableHolds(_ expected: [String: Int], timeout: Duration = .seconds(60)) async -> String? {
		let deadline = ContinuousClock.now + timeout
		var problem = ""
		while true {
			do {
				let entries = try await table.entries()
				let wrong = expected.filter { entries[$0.key]?.value?.get(Int.self) != $0.value }
				guard !wrong.isEmpty else {
					return nil
				}

				let shown = wrong.keys.sorted().prefix(10).map { "\($0) = \(entries[$0]?.value?.get(Int.self).map(String.init) ?? "absent")" }
				problem = "\(wrong.count) of \(expected.count) keys do not hold the value written, e.g. \(shown.joined(separator: ", "))"
			} catch {
				problem = "the table could not be read: \(error)"
			}

			if ContinuousClock.now >= deadline {
				return problem
			}

			try? await Task.sleep(for: .milliseconds(250))
		}
	}

	/// The members that ended although the test did not kill them.
	var exited: [Member] {
		members.filter(\.process.hasExited)
	}

	/// `members`, for a failure message: names, hosts, and the last line each printed on standard error.
	func describe(_ members: [Member]) -> String {
		let shown = members.prefix(5).map { member in
			let error = member.process.errorOutputText.split(separator: "\n").last.map { ": \($0.prefix(300))" } ?? ""
			return "\(member.name) (host \(member.host)\(member.process.hasExited ? ", exited" : ""))\(error)"
		}
		return "\(members.count) members: \(shown.joined(separator: "; "))\(members.count > 5 ? "; …" : "")"
	}
}
#endif
