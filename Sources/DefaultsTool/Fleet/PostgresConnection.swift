#if Postgres
import Defaults
import DefaultsPostgres
import Foundation
import PostgresNIO

/**
The tool's PostgreSQL connection, as libpq's programs find it: the standard
variables `PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD`, `PGDATABASE` and
`PGSSLMODE`, each overridden by what a `postgres://user:password@host:port/database?sslmode=…`
URL gives. A `PGHOST` that starts with `/` is the folder of the server's Unix socket.

`PGSSLMODE` is libpq's: `disable`; `allow` and `prefer` (the default) use TLS
when the server offers it; `require` insists on it, without checking the
certificate; `verify-ca` checks the certificate, `verify-full` its host name too.
*/
enum PostgresConnection {
	struct Settings: Equatable {
		var host = "localhost"
		var port = 5432
		var user = ProcessInfo.processInfo.environment["USER"] ?? "postgres"
		var password: String?
		var database: String?
		var sslMode = "prefer"
	}

	/// A store of `namespace`; `createsTable`: make the table when missing, as the fleet's processes do on first use.
	static func store(url: String?, namespace: String, table: String?, schema: String?, device: String, createsTable: Bool) throws -> Defaults.PostgresRemoteStore {
		let settings = try settings(url: url, environment: ProcessInfo.processInfo.environment)
		var options = Defaults.PostgresRemoteStore.Options()
		options.createsTable = createsTable
		// A command lives for one read or write: it connects itself, reads the table itself, and leaves no relay files.
		options.connectionSharing = .none
		if let table {
			options.table = table
		}

		if let schema {
			options.schema = schema
		}

		let configuration = try configuration(settings)
		do {
			return try Defaults.PostgresRemoteStore(configuration: configuration, namespace: namespace, device: device, options: options)
		} catch .invalidName(let name, let reason) {
			throw ToolError.invalidFleetName(name, reason: reason)
		} catch {
			throw ToolError.fleetRemoteFailed(remote: "PostgreSQL", reason: error.description)
		}
	}

	/// The variables, then the URL over them.
	static func settings(url: String?, environment: [String: String]) throws -> Settings {
		var settings = Settings()
		settings.host = environment["PGHOST"].flatMap(nonEmpty) ?? settings.host
		if let port = environment["PGPORT"].flatMap(nonEmpty) {
			settings.port = try self.port(port, source: "PGPORT")
		}

		settings.user = environment["PGUSER"].flatMap(nonEmpty) ?? settings.user
		settings.password = environment["PGPASSWORD"]
		settings.database = environment["PGDATABASE"].flatMap(nonEmpty)
		settings.sslMode = environment["PGSSLMODE"].flatMap(nonEmpty) ?? settings.sslMode
		if let url {
			try apply(url: url, to: &settings)
		}

		_ = try tls(settings.sslMode)
		return settings
	}

	private static func apply(url text: String, to settings: inout Settings) throws {
		guard let url = URLComponents(string: text), ["postgres", "postgresql"].contains(url.scheme ?? "") else {
			throw ToolError.invalidConnection("'\(redacted(text))' is not a postgres://user@host:port/database URL")
		}

		if let host = url.host, !host.isEmpty {
			settings.host = host.removingPercentEncoding ?? host
		}

		if let port = url.port {
			settings.port = try self.port(String(port), source: "the URL")
		}

		if let user = url.user, !user.isEmpty {
			settings.user = user.removingPercentEncoding ?? user
		}

		if let password = url.password {
			settings.password = password.removingPercentEncoding ?? password
		}

		let database = url.path.drop { $0 == "/" }
		if !database.isEmpty {
			settings.database = String(database).removingPercentEncoding ?? String(database)
		}

		for item in url.queryItems ?? [] {
			switch item.name {
			case "sslmode":
				settings.sslMode = item.value ?? ""
			case "host":
				settings.host = item.value ?? settings.host
			default:
				throw ToolError.invalidConnection("the URL's parameter '\(item.name)' is not supported (only sslmode and host)")
			}
		}
	}

	private static func port(_ text: String, source: String) throws -> Int {
		guard let port = Int(text), (1...65_535).contains(port) else {
			throw ToolError.invalidConnection("\(source) gives the port '\(text)': expected a number from 1 to 65535")
		}

		return port
	}

	private static func tls(_ mode: String) throws -> PostgresClient.Configuration.TLS {
		var tls = TLSConfiguration.makeClientConfiguration()
		switch mode {
		case "disable":
			return .disable
		case "allow", "prefer":
			tls.certificateVerification = .none
			return .prefer(tls)
		case "require":
			tls.certificateVerification = .none
			return .require(tls)
		case "verify-ca":
			tls.certificateVerification = .noHostnameVerification
			return .require(tls)
		case "verify-full":
			return .require(tls)
		default:
			throw ToolError.invalidConnection("PGSSLMODE (or the URL's sslmode) is '\(mode)': expected disable, allow, prefer, require, verify-ca or verify-full")
		}
	}

	static func configuration(_ settings: Settings) throws -> PostgresClient.Configuration {
		var configuration: PostgresClient.Configuration
		if settings.host.hasPrefix("/") {
			// libpq's convention: a host that is a path is the folder of the server's socket.
			configuration = PostgresClient.Configuration(
				unixSocketPath: "\(settings.host)/.s.PGSQL.\(settings.port)",
				username: settings.user,
				password: settings.password,
				database: settings.database
			)
		} else {
			configuration = PostgresClient.Configuration(
				host: settings.host,
				port: settings.port,
				username: settings.user,
				password: settings.password,
				database: settings.database,
				tls: try tls(settings.sslMode)
			)
		}

		configuration.options.additionalStartupParameters = [("application_name", "defaults-tool")]
		// One command: a statement connection, and one more for `fleet watch`'s LISTEN.
		configuration.options.maximumConnections = 2
		return configuration
	}

	/// The URL without its password, for messages.
	private static func redacted(_ text: String) -> String {
		guard var url = URLComponents(string: text), url.password != nil else {
			return text
		}

		url.password = "***"
		return url.string ?? "(the URL)"
	}

	private static func nonEmpty(_ text: String) -> String? {
		text.isEmpty ? nil : text
	}
}
#endif
