#if Postgres
import Defaults
import Foundation
import Logging
import PostgresNIO

/**
Counts, every 50 ms, the connections a fleet's members hold on the small cluster
(`pg_stat_activity`, by `application_name`), and keeps the peaks.

It samples on a connection of its own, opened before the fleet starts: a fleet
that fills the server must not blind the test that measures it.
*/
final class PostgresConnectionSampler: Sendable {
	struct Peaks: Sendable, CustomStringConvertible {
		/// The most connections the members held at once, in all.
		var inAll = 0
		/// The most each host's members held at once.
		var perHost: [Int: Int] = [:]
		/// The most any one member held at once.
		var perProcess = 0
		/// What the members held at the last sample.
		var latestInAll = 0
		var samples = 0
		/// How many samples failed, and why the last of them did.
		var failedSamples = 0
		var lastFailure: String?
		/// Whether the latest sample failed (then `latestInAll` is older).
		var latestFailed = false

		/// The most connections any one host's members held at once.
		var busiestHost: Int {
			perHost.values.max() ?? 0
		}

		var description: String {
			let hosts = perHost.sorted { $0.key < $1.key }.map { "h\($0.key): \($0.value)" }.joined(separator: ", ")
			return "members held at most \(inAll) connections in all, \(busiestHost) on the busiest host (\(hosts)), \(perProcess) in one process; \(latestInAll) at the last of \(samples) samples\(lastFailure.map { "; \(failedSamples) samples failed, the last with: \($0)" } ?? "")"
		}
	}

	private let connection: PostgresConnection
	private let prefix: String
	private let peaks: Locked<Peaks>
	private let sampling: Task<Void, Never>

	/**
	Starts sampling the connections whose `application_name` is `prefix` followed by `hN…` (host N):
	the names ``PostgresFleet`` gives its members.
	*/
	static func start(prefix: String) async throws -> PostgresConnectionSampler {
		var configuration = PostgresConnection.Configuration(
			host: ProcessInfo.processInfo.environment["DEFAULTS_PG_HOST"] ?? "127.0.0.1",
			port: PostgresTestServer.limitedPort ?? 5432,
			username: ProcessInfo.processInfo.environment["DEFAULTS_PG_USER"] ?? "defaults",
			password: ProcessInfo.processInfo.environment["DEFAULTS_PG_PASSWORD"],
			database: ProcessInfo.processInfo.environment["DEFAULTS_PG_DATABASE"],
			tls: .disable
		)
		configuration.options.additionalStartupParameters = [("application_name", "defaults-tests-sampler")]
		let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
		return PostgresConnectionSampler(connection: connection, prefix: prefix)
	}

	private static let logger = Logger(label: "defaults-tests.sampler") { _ in SwiftLogNoOpLogHandler() }

	private init(connection: PostgresConnection, prefix: String) {
		let peaks = Locked(Peaks())
		self.connection = connection
		self.prefix = prefix
		self.peaks = peaks
		sampling = Task {
			while !Task.isCancelled {
				do {
					let held = try await Self.sample(connection, prefix: prefix)
					peaks.withLock { $0.record(held, prefix: prefix) }
				} catch {
					peaks.withLock { $0.recordFailure(error) }
				}

				try? await Task.sleep(for: .milliseconds(50))
			}

			try? await connection.close()
		}
	}

	/// Takes a sample now (besides those taken every 50 ms); the peaks, that sample included.
	func sampleNow() async -> Peaks {
		do {
			let held = try await Self.sample(connection, prefix: prefix)
			peaks.withLock { $0.record(held, prefix: prefix) }
		} catch {
			peaks.withLock { $0.recordFailure(error) }
		}

		return current
	}

	/// The connections held now, by application name.
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

	/// The peaks so far.
	var current: Peaks {
		peaks.withLock { $0 }
	}

	/// Stops sampling, and closes the connection once the sample under way ended (without waiting: this runs from a
	/// test's `defer`); the peaks.
	func cancel() -> Peaks {
		sampling.cancel()
		return current
	}
}

extension PostgresConnectionSampler.Peaks {
	fileprivate mutating func record(_ held: [String: Int], prefix: String) {
		var hosts: [Int: Int] = [:]
		for (name, count) in held {
			// `<prefix>h<host>m<member>`
			let host = name.dropFirst(prefix.count).dropFirst().prefix { $0.isNumber }
			hosts[Int(host) ?? -1, default: 0] += count
			perProcess = max(perProcess, count)
		}

		for (host, count) in hosts {
			perHost[host] = max(perHost[host] ?? 0, count)
		}

		latestInAll = held.values.reduce(0, +)
		inAll = max(inAll, latestInAll)
		samples += 1
		latestFailed = false
	}

	fileprivate mutating func recordFailure(_ error: any Error) {
		failedSamples += 1
		lastFailure = String(reflecting: error)
		latestFailed = true
	}
}
#endif
