#if Postgres
import Defaults
import DefaultsPostgres
import Foundation
import Logging
import PostgresNIO

/// How long a fleet stays idle before the connections it still holds are counted: longer than the 5 s after which a
/// statement connection closes.
private let idleSeconds = 10

/**
The "connections" section: fleets of P processes (DEFAULTS_BENCHMARK_FLEET, "10,50,150"), on one host and spread
over 10 (a preferences folder each), every process with the store's default options but for the connection sharing,
measured with `.none` and with the default, side by side.
*/
func measureConnections(configFolder: URL) async throws {
	let sizes = (ProcessInfo.processInfo.environment["DEFAULTS_BENCHMARK_FLEET"] ?? "10,50,150")
		.split(separator: ",")
		.compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
	let limit = try await ConnectionCounter.serverLimit()
	print("\nConnections: P processes with the default options, on one host or over 10 (a preferences folder each), against a server with max_connections = \(limit); each process syncs `shared` and writes a key of its own once ready, then the benchmark writes `shared` once.")
	print("Each cell: sharing `.none` / the default sharing. Connections counted every 200 ms in pg_stat_activity; 'at end': after \(idleSeconds) s idle. Times: until the last process saw the write, or its own write was in the table (> 60 s: not all).\n")
	print("| Processes | Hosts | Ready | Connections, max | At end | Per process, max | Per host, max | Saw the write | Slowest | Own writes in the table | Slowest |")
	print("|---:|---:|---|---|---|---|---|---|---|---|---|")
	for processes in sizes {
		for hosts in [1, 10] {
			let none = try await measureFleet(processes: processes, hosts: hosts, sharing: "none", configFolder: configFolder)
			let shared = try await measureFleet(processes: processes, hosts: hosts, sharing: "default", configFolder: configFolder)
			func cell(_ value: (FleetResult) -> String) -> String {
				"\(value(none)) / \(value(shared))"
			}

			print("| \(processes) | \(hosts) | \(cell { "\($0.ready)" }) | \(cell { "\($0.peakInAll)" }) | \(cell { "\($0.atEnd)" }) | \(cell { "\($0.peakPerProcess)" }) | \(cell { "\($0.peakPerHost)" }) | \(cell { "\($0.saw)" }) | \(cell { seconds($0.slowestSaw, all: $0.saw == processes) }) | \(cell { "\($0.published)" }) | \(cell { seconds($0.slowestPublish, all: $0.published == processes) }) |")
		}
	}
}

/// What one fleet did; times in microseconds.
private struct FleetResult {
	var ready = 0
	var peakInAll = 0
	var atEnd = 0
	var peakPerProcess = 0
	var peakPerHost = 0
	var saw = 0
	var slowestSaw: Int64 = 0
	var published = 0
	var slowestPublish: Int64 = 0
}

/// A time for the table, or "> 60 s" when not every process got there.
private func seconds(_ microseconds: Int64, all: Bool) -> String {
	guard all else {
		return "> 60 s"
	}

	return microseconds < 1_000_000 ? "\(microseconds / 1_000) ms" : String(format: "%.1f s", Double(microseconds) / 1_000_000)
}

/// Starts `processes` processes over `hosts` preferences folders, measures them, and kills them.
private func measureFleet(processes: Int, hosts: Int, sharing: String, configFolder: URL) async throws -> FleetResult {
	let run = "f\(UUID().uuidString.prefix(8))-"
	let namespace = "benchmark-fleet-\(run)"
	// Everything the benchmark itself needs from the server is connected before the fleet can fill it.
	let counter = try await ConnectionCounter.start(prefix: run)
	var configuration = try postgresConfiguration(applicationName: "benchmark-fleet-writer")
	configuration.options.connectionIdleTimeout = .seconds(3_600)
	var options = Defaults.PostgresRemoteStore.Options()
	options.connectionSharing = .none
	options.maximumConnections = 1
	options.idleConnectionTimeout = .seconds(3_600)
	let store = try Defaults.PostgresRemoteStore(configuration: configuration, namespace: namespace, device: "benchmark", options: options)
	_ = try await store.entries()

	let folder = configFolder.appendingPathComponent("fleet-\(run)")
	var children: [Child] = []
	defer {
		for child in children {
			child.kill()
		}

		try? FileManager.default.removeItem(at: folder)
	}

	for index in 0..<processes {
		let host = index % hosts
		let child = Child(
			["--member", namespace, "p\(index)", sharing],
			configFolder: folder.appendingPathComponent("host-\(host)"),
			environment: ["DEFAULTS_PG_APPLICATION_NAME": "\(run)h\(host)m\(index)"]
		)
		// Their diagnostics (the refusals of a full server, hundreds of lines) would bury the table.
		child.process.standardError = FileHandle.nullDevice
		try child.start()
		children.append(child)
	}

	var result = FleetResult()
	// Readiness and the processes' own writes, followed together: a write is timed from the moment its process made it.
	let readyDeadline = Date().addingTimeInterval(120)
	var lastWrite = Date()
	var firstSeen: [String: Int64] = [:]
	while true {
		let now = microseconds()
		if let entries = try? await store.entries() {
			for index in 0..<processes where firstSeen["p\(index)"] == nil && entries["p\(index)"]?.value?.get(Int.self) == 1 {
				firstSeen["p\(index)"] = now
			}
		}

		let ready = children.count { $0.line { $0 == "ready" } != nil }
		if ready > result.ready {
			result.ready = ready
			lastWrite = Date()
		}

		if (ready == processes || Date() > readyDeadline) && (firstSeen.count == processes || Date() > lastWrite.addingTimeInterval(60)) {
			break
		}

		try await Task.sleep(for: .milliseconds(100))
	}

	result.published = firstSeen.count
	for (index, child) in children.enumerated() {
		if let seen = firstSeen["p\(index)"], let wrote = child.line(where: { $0.hasPrefix("wrote ") }).flatMap({ Int64($0.dropFirst("wrote ".count)) }) {
			result.slowestPublish = max(result.slowestPublish, seen - wrote)
		}
	}

	// One write of `shared`, stamped as a device's explicit write made now.
	let value = Int.random(in: 1_000...999_999)
	let written = microseconds()
	let stamp = Defaults.SyncTimestamp(milliseconds: written / 1_000, counter: 0, device: "benchmark#\(run)")
	try await store.publish(["shared": Defaults.RemoteEntry(value: Defaults.AnySerializable(value), timestamp: stamp)])
	let sawDeadline = Date().addingTimeInterval(60)
	var saw: [Int64] = []
	repeat {
		saw = children.compactMap { child in
			child.line { $0.hasPrefix("saw \(value) ") }.flatMap { Int64($0.split(separator: " ")[2]) }
		}
		if saw.count == processes {
			break
		}

		try await Task.sleep(for: .milliseconds(100))
	} while Date() < sawDeadline
	result.saw = saw.count
	result.slowestSaw = (saw.max() ?? written) - written

	try await Task.sleep(for: .seconds(idleSeconds))
	let peaks = await counter.stop()
	result.peakInAll = peaks.inAll
	result.atEnd = peaks.latestInAll
	result.peakPerProcess = peaks.perProcess
	result.peakPerHost = peaks.perHost
	return result
}

/// The connections of one fleet (`application_name` `<prefix>h<host>m<index>`), counted every 200 ms on a connection
/// of its own, opened before the fleet starts.
private final class ConnectionCounter: Sendable {
	struct Peaks: Sendable {
		var inAll = 0
		var perHost = 0
		var perProcess = 0
		var latestInAll = 0
	}

	private let connection: PostgresConnection
	private let prefix: String
	private let peaks: Locked<Peaks>
	private let sampling: Task<Void, Never>
	private static let logger = Logger(label: "benchmark.connections") { _ in SwiftLogNoOpLogHandler() }

	static func start(prefix: String) async throws -> ConnectionCounter {
		ConnectionCounter(connection: try await connect(), prefix: prefix)
	}

	/// The server's `max_connections`.
	static func serverLimit() async throws -> Int {
		let connection = try await connect()
		var limit = 0
		for try await value in try await connection.query("SELECT current_setting('max_connections')::int", logger: logger).decode(Int.self) {
			limit = value
		}

		try await connection.close()
		return limit
	}

	private static func connect() async throws -> PostgresConnection {
		let client = try postgresConfiguration()
		var configuration = PostgresConnection.Configuration(
			host: client.host ?? "127.0.0.1",
			port: client.port ?? 5432,
			username: client.username,
			password: client.password,
			database: client.database,
			tls: .disable
		)
		configuration.options.additionalStartupParameters = [("application_name", "benchmark-fleet-counter")]
		return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
	}

	private init(connection: PostgresConnection, prefix: String) {
		let peaks = Locked(Peaks())
		self.connection = connection
		self.prefix = prefix
		self.peaks = peaks
		sampling = Task {
			while !Task.isCancelled {
				if let held = try? await Self.sample(connection, prefix: prefix) {
					peaks.withLock { $0.record(held, prefix: prefix) }
				}

				try? await Task.sleep(for: .milliseconds(200))
			}
		}
	}

	private static func sample(_ connection: PostgresConnection, prefix: String) async throws -> [String: Int] {
		let rows = try await connection.query(
			"SELECT application_name, count(*)::int FROM pg_stat_activity WHERE starts_with(application_name, \(prefix)) GROUP BY application_name",
			logger: logger
		)
		var held: [String: Int] = [:]
		for try await (name, count) in rows.decode((String, Int).self) {
			held[name] = count
		}

		return held
	}

	/// Takes a last sample (the state at the end), stops, and closes the connection.
	func stop() async -> Peaks {
		sampling.cancel()
		await sampling.value
		if let held = try? await Self.sample(connection, prefix: prefix) {
			peaks.withLock { $0.record(held, prefix: prefix) }
		}

		try? await connection.close()
		return peaks.withLock { $0 }
	}
}

extension ConnectionCounter.Peaks {
	fileprivate mutating func record(_ held: [String: Int], prefix: String) {
		var hosts: [Substring: Int] = [:]
		for (name, count) in held {
			// `<prefix>h<host>m<index>`
			hosts[name.dropFirst(prefix.count).prefix { $0 != "m" }, default: 0] += count
			perProcess = max(perProcess, count)
		}

		perHost = max(perHost, hosts.values.max() ?? 0)
		latestInAll = held.values.reduce(0, +)
		inAll = max(inAll, latestInAll)
	}
}

/// A process of a fleet (`--member NAMESPACE NAME SHARING`, SHARING `none` or `default`): syncs `shared` and writes
/// its key NAME once ready; prints "ready", "wrote MICROSECONDS" and "saw VALUE MICROSECONDS" (when `shared` changes).
func fleetMember(namespace: String, name: String, sharing: String) async throws {
	var options = Defaults.PostgresRemoteStore.Options()
	if sharing == "none" {
		options.connectionSharing = .none
	}

	let applicationName = ProcessInfo.processInfo.environment["DEFAULTS_PG_APPLICATION_NAME"]
	Defaults.iCloud.remote = try Defaults.PostgresRemoteStore(configuration: postgresConfiguration(applicationName: applicationName), namespace: namespace, device: name, options: options)
	let suite = UserDefaults(suiteName: "fleet-member")!
	let shared = Defaults.Key<Int>("shared", default: 0, suite: suite, iCloud: true)
	let own = Defaults.Key<Int>(name, default: 0, suite: suite, iCloud: true)
	let observation = Defaults.observe(shared, options: []) { change in
		say("saw \(change.newValue) \(microseconds())")
	}
	await Defaults.iCloud.waitForSyncCompletion()
	say("ready")
	say("wrote \(microseconds())")
	Defaults[own] = 1
	try await Task.sleep(for: .seconds(3_600))
	observation.invalidate()
}
#endif
