#if Postgres
import Defaults
import DefaultsPostgres
import Foundation
import PostgresNIO

/// The stores compared: a shared folder (what Linux had) and PostgreSQL.
enum StoreKind {
	case sharedFolder(URL, device: String)
	case postgres(namespace: String)

	init(_ name: String, location: String, device: String) throws {
		switch name {
		case "folder":
			self = .sharedFolder(URL(fileURLWithPath: location), device: device)
		case "postgres":
			self = .postgres(namespace: location)
		default:
			throw BenchmarkError("unknown store \(name)")
		}
	}

	var name: String {
		switch self {
		case .sharedFolder: "folder"
		case .postgres: "postgres"
		}
	}

	var location: String {
		switch self {
		case .sharedFolder(let folder, _): folder.path
		case .postgres(let namespace): namespace
		}
	}

	var title: String {
		switch self {
		case .sharedFolder: "shared folder (inotify)"
		case .postgres: "PostgreSQL (LISTEN/NOTIFY)"
		}
	}

	func makeStore() throws -> any Defaults.RemoteStore {
		switch self {
		case .sharedFolder(let folder, let device):
			return try Defaults.SharedFolderRemoteStore(folder: folder, device: device)
		case .postgres(let namespace):
			return try Defaults.PostgresRemoteStore(configuration: postgresConfiguration(), namespace: namespace)
		}
	}
}

/// The server `scripts/postgres` started (DEFAULTS_PG_*); `applicationName` names the connections in `pg_stat_activity`.
func postgresConfiguration(applicationName: String? = nil) throws -> PostgresClient.Configuration {
	let environment = ProcessInfo.processInfo.environment
	guard let host = environment["DEFAULTS_PG_HOST"], let port = environment["DEFAULTS_PG_PORT"].flatMap(Int.init) else {
		throw BenchmarkError("no PostgreSQL server: run `scripts/postgres run swift run -c release DefaultsPostgresBenchmarks`")
	}

	var configuration = PostgresClient.Configuration(
		host: host,
		port: port,
		username: environment["DEFAULTS_PG_USER"] ?? "defaults",
		password: environment["DEFAULTS_PG_PASSWORD"],
		database: environment["DEFAULTS_PG_DATABASE"],
		tls: .disable
	)
	if let applicationName {
		configuration.options.additionalStartupParameters = [("application_name", applicationName)]
	}

	return configuration
}

struct BenchmarkError: Error, CustomStringConvertible {
	let description: String

	init(_ description: String) {
		self.description = description
	}
}
#endif
