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

	/// A store of `namespace`, once the server accepted a connection (see ``check(_:remote:)``); `createsTable`: make the table
	/// when missing, as the fleet's processes do on first use. `remote` is the name failures go by.
	static func store(url: String?, namespace: String, table: String?, schema: String?, device: String, createsTable: Bool, remote: String) throws -> Defaults.PostgresRemoteStore {
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
		let store: Defaults.PostgresRemoteStore
		do {
			store = try Defaults.PostgresRemoteStore(configuration: configuration, namespace: namespace, device: device, options: options)
		} catch .invalidName(let name, let reason) {
			throw ToolError.invalidFleetName(name, reason: reason)
		} catch {
			throw ToolError.fleetRemoteFailed(remote: "PostgreSQL", reason: error.description)
		}

		try check(settings, remote: remote)
		return store
	}

	/**
	Connects once, and closes, before the store's first statement: a server that
	refuses (a wrong password, a missing database, nothing listening on the port)
	is reported at once, in one line, in its own words. The store's connection
	pool would try again until its operation timeout (10 s), as a service must,
	and then say only that PostgreSQL did not answer.
	*/
	static func check(_ settings: Settings, remote: String) throws {
		let configuration = try connectionConfiguration(settings)
		var logger = Logger(label: "defaults-tool")
		// The failure is reported below, in one line: nothing logged.
		logger.logLevel = .critical
		do {
			try BlockingTask.run { [logger] in
				let connection = try await PostgresNIO.PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
				try await connection.close()
			}
		} catch {
			let failure = Defaults.PostgresRemoteStoreError.from(error)
			let reason = if case .server = failure { "the server refused the connection: \(failure.reason)" } else { failure.reason }
			throw ToolError.fleetRemoteFailed(remote: remote, reason: reason)
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
		switch try tlsSettings(mode) {
		case nil:
			.disable
		case (let tls, let isRequired)?:
			isRequired ? .require(tls) : .prefer(tls)
		}
	}

	/// The TLS that libpq's `sslmode` asks for, and whether it is required; `nil`: none.
	private static func tlsSettings(_ mode: String) throws -> (TLSConfiguration, isRequired: Bool)? {
		var tls = TLSConfiguration.makeClientConfiguration()
		switch mode {
		case "disable":
			return nil
		case "allow", "prefer":
			tls.certificateVerification = .none
			return (tls, false)
		case "require":
			tls.certificateVerification = .none
			return (tls, true)
		case "verify-ca":
			tls.certificateVerification = .noHostnameVerification
			return (tls, true)
		case "verify-full":
			return (tls, true)
		default:
			throw ToolError.invalidConnection("PGSSLMODE (or the URL's sslmode) is '\(mode)': expected disable, allow, prefer, require, verify-ca or verify-full")
		}
	}

	/// The settings for one connection of its own, as ``configuration(_:)`` gives them to the store's pool.
	private static func connectionConfiguration(_ settings: Settings) throws -> PostgresNIO.PostgresConnection.Configuration {
		var configuration: PostgresNIO.PostgresConnection.Configuration
		if settings.host.hasPrefix("/") {
			configuration = .init(unixSocketPath: "\(settings.host)/.s.PGSQL.\(settings.port)", username: settings.user, password: settings.password, database: settings.database)
		} else {
			let tls: PostgresNIO.PostgresConnection.Configuration.TLS
			do {
				tls = switch try tlsSettings(settings.sslMode) {
				case nil: .disable
				case (let settings, let isRequired)?: isRequired ? .require(try NIOSSLContext(configuration: settings)) : .prefer(try NIOSSLContext(configuration: settings))
				}
			} catch let error as ToolError {
				throw error
			} catch {
				throw ToolError.invalidConnection("TLS cannot be set up: \(error)")
			}

			configuration = .init(host: settings.host, port: settings.port, username: settings.user, password: settings.password, database: settings.database, tls: tls)
		}

		configuration.options.additionalStartupParameters = [("application_name", "defaults-tool")]
		return configuration
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
