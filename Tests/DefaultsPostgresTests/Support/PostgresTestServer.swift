#if Postgres
import Defaults
import DefaultsPostgres
import DefaultsTestSupport
import Foundation
import PostgresNIO
import Testing

/// The throwaway server `scripts/postgres start` runs for the tests, described by its `DEFAULTS_PG_*` exports.
enum PostgresTestServer {
	private static let environment = ProcessInfo.processInfo.environment

	/// Whether the exports are there; without them every PostgreSQL test is skipped (loudly: see `PostgresTests.testsRun`).
	static let isAvailable = ["DEFAULTS_PG_HOST", "DEFAULTS_PG_PORT", "DEFAULTS_PG_USER", "DEFAULTS_PG_PASSWORD", "DEFAULTS_PG_DATABASE"]
		.allSatisfy { environment[$0] != nil }

	/// Whether the tests may stop, restart and kill connections of the server (scripts/postgres gives them the means).
	static let isControllable = isAvailable && environment["DEFAULTS_PG_CONTROL"] != nil && environment["DEFAULTS_PG_DATA"] != nil

	/// Whether `scripts/postgres` also runs its small cluster, whose low `max_connections` the fleet tests hit.
	static let isLimitedAvailable = isAvailable && limitedPort != nil

	/// The small cluster's port (same host, user, password and database as the main one).
	static let limitedPort = environment["DEFAULTS_PG_LIMITED_PORT"].flatMap { Int($0) }

	/// The small cluster's `max_connections` (no slot reserved for superusers: the limit is the limit).
	static let limitedMaximumConnections = environment["DEFAULTS_PG_LIMITED_MAX_CONNECTIONS"].flatMap { Int($0) } ?? 25

	/// A namespace no other test uses.
	static func uniqueNamespace(_ label: String = #function) -> String {
		"test-\(label.prefix(40))-\(UUID().uuidString.prefix(8))"
	}

	/// Connection settings; `applicationName` lets a test find (and terminate) this store's connections on the server.
	static func configuration(applicationName: String = "defaults-tests", password: String? = nil, port: Int? = nil) -> PostgresClient.Configuration {
		var configuration = PostgresClient.Configuration(
			host: environment["DEFAULTS_PG_HOST"] ?? "127.0.0.1",
			port: port ?? Int(environment["DEFAULTS_PG_PORT"] ?? "") ?? 5432,
			username: environment["DEFAULTS_PG_USER"] ?? "defaults",
			password: password ?? environment["DEFAULTS_PG_PASSWORD"],
			database: environment["DEFAULTS_PG_DATABASE"],
			tls: .disable
		)
		configuration.options.additionalStartupParameters = [("application_name", applicationName)]
		// Stores live as long as their synchronisers (the whole test run): keep each one's pool small.
		configuration.options.maximumConnections = 4
		return configuration
	}

	/// Connection settings for the small cluster (see ``isLimitedAvailable``).
	static func limitedConfiguration(applicationName: String) -> PostgresClient.Configuration {
		configuration(applicationName: applicationName, port: limitedPort)
	}

	/// Options with short delays, so reconnection tests finish quickly.
	static var quickOptions: Defaults.PostgresRemoteStore.Options {
		var options = Defaults.PostgresRemoteStore.Options()
		options.operationTimeout = .seconds(3)
		options.reconnectDelay = .milliseconds(50)
		options.maximumReconnectDelay = .milliseconds(500)
		// Each store stands for a device of its own (its own connections, which a test may terminate): none shares a host's.
		options.connectionSharing = .none
		return options
	}

	static func store(
		namespace: String,
		device: String? = nil,
		applicationName: String = "defaults-tests",
		password: String? = nil,
		options: Defaults.PostgresRemoteStore.Options = quickOptions
	) throws -> Defaults.PostgresRemoteStore {
		try Defaults.PostgresRemoteStore(configuration: configuration(applicationName: applicationName, password: password), namespace: namespace, device: device, options: options)
	}

	/// The environment for a child process: the server's exports (and the tests' configuration folder).
	static func childEnvironment(overriding overrides: [String: String] = [:]) -> [String: String] {
		var environment = environment
		// The tests' own folder, where their cleanup looks for the children's suite files.
		environment["XDG_CONFIG_HOME"] = TestEnvironment.configHome.path
		environment.merge(overrides) { _, new in new }
		return environment
	}

	/// The environment of the `defaults` tool run as an operator's shell gives it the server (libpq's variables), with `overrides`.
	static func toolEnvironment(overriding overrides: [String: String] = [:]) -> [String: String] {
		let server = ProcessInfo.processInfo.environment
		return childEnvironment(overriding: [
			"PGHOST": server["DEFAULTS_PG_HOST"] ?? "",
			"PGPORT": server["DEFAULTS_PG_PORT"] ?? "",
			"PGUSER": server["DEFAULTS_PG_USER"] ?? "",
			"PGPASSWORD": server["DEFAULTS_PG_PASSWORD"] ?? "",
			"PGDATABASE": server["DEFAULTS_PG_DATABASE"] ?? "",
			"PGSSLMODE": "disable",
		].merging(overrides) { $1 })
	}

	/// Runs `scripts/postgres COMMAND` (`restart`, `stop-server`, `start-server`) on the test cluster.
	static func control(_ command: String) throws {
		let result = try ChildProcess.run(path: environment["DEFAULTS_PG_CONTROL"]!, [command], environment: environment)
		guard result.status == 0 else {
			throw ControlFailure(command: command, output: result.errorOutput)
		}
	}

	struct ControlFailure: Error, CustomStringConvertible {
		let command: String
		let output: String
		var description: String { "scripts/postgres \(command) failed: \(output)" }
	}

	/// Runs one statement as the superuser, on its own short-lived client.
	static func execute(_ query: PostgresQuery) async throws {
		let client = PostgresClient(configuration: configuration(applicationName: "defaults-tests-admin"))
		try await withThrowingTaskGroup(of: Void.self) { group in
			group.addTask { await client.run() }
			try await client.query(query)
			group.cancelAll()
		}
	}

	/// How many connections opened with `applicationName` the server holds now.
	static func connectionCount(of applicationName: String) async throws -> Int {
		let client = PostgresClient(configuration: configuration(applicationName: "defaults-tests-admin"))
		return try await withThrowingTaskGroup(of: Int?.self) { group in
			group.addTask {
				await client.run()
				return nil
			}
			let rows = try await client.query("SELECT count(*)::int FROM pg_stat_activity WHERE application_name = \(applicationName)")
			var count = 0
			for try await row in rows {
				count = try row.decode(Int.self)
			}
			group.cancelAll()
			return count
		}
	}

	/// Ends, from the server side, every connection opened with `applicationName`; returns how many it ended.
	static func terminateConnections(of applicationName: String) async throws {
		try await execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = \(applicationName)")
	}
}

#endif
