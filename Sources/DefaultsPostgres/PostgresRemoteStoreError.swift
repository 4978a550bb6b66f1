#if Postgres
import Defaults
import Foundation
import PostgresNIO

/// The PostgreSQL store's errors, in the `Defaults` namespace like the rest of the library.
extension Defaults {
	/**
	Why a ``PostgresRemoteStore`` operation failed. The synchroniser reports it as a
	`syncFailed` diagnostic and retries; local values are never lost.

	```swift
	do {
		_ = try await store.entries()
	} catch let error as Defaults.PostgresRemoteStoreError {
		print(error) // "PostgreSQL did not answer within 10 s (last connection error: …)"
	}
	```
	*/
	public enum PostgresRemoteStoreError: Error, Sendable, Hashable, CustomStringConvertible {
		/// A namespace, schema or table name the store does not accept.
		case invalidName(String, reason: String)
		/// No connection could be made in time; `lastConnectionError` is what the last attempt reported, if any.
		case unreachable(after: Duration, lastConnectionError: String?)
		/// The server refused a statement (`sqlState` is PostgreSQL's error code).
		case server(sqlState: String, message: String)
		/// The connection failed or closed while a statement ran.
		case connectionLost(String)
		/// The store was shut down.
		case shutDown
		/// The table has lost a column the store uses, or its type (altered under the store): nothing is written until it is repaired.
		case unusableTable(String)
		/**
		The files through which this host's processes share one connection
		(``PostgresRemoteStore/Options/connectionSharing``) could not be used:
		`path` names the relay file or folder, `reason` says what is wrong with
		it (a damaged file, a full disk, no process answering for the host).
		The store retries; a damaged file is set aside and written anew.
		*/
		case sharedConnection(path: String, reason: String)

		public var description: String {
			switch self {
			case .invalidName(let name, let reason):
				"invalid name '\(name)': \(reason)"
			case .unreachable(let duration, let lastConnectionError):
				"PostgreSQL did not answer within \(duration)" + (lastConnectionError.map { " (last connection error: \($0))" } ?? "")
			case .server(let sqlState, let message):
				"PostgreSQL refused the statement: \(message) (SQLSTATE \(sqlState))"
			case .connectionLost(let reason):
				"the connection to PostgreSQL failed: \(reason)"
			case .shutDown:
				"the store was shut down"
			case .unusableTable(let reason):
				"the table cannot hold synced entries: \(reason)"
			case .sharedConnection(let path, let reason):
				"\(path) \(reason) (a file through which this host's processes share a PostgreSQL connection)"
			}
		}

		/// The error as the store reports it: the server's own words when it sent any, never the statement's parameters;
		/// a connection that could not be made in one line (``connectionFailure(in:)``).
		package static func from(_ error: any Error) -> Self {
			if let error = error as? Self {
				return error
			}

			guard let error = error as? PSQLError else {
				return .connectionLost(poolFailure(in: "\(error)") ?? "\(error)")
			}

			if let message = error.serverInfo?[.message] {
				return .server(sqlState: error.serverInfo?[.sqlState] ?? "?", message: message)
			}

			if error.code == .sslUnsupported {
				return .connectionLost("the server does not offer TLS, which the connection requires")
			}

			if let underlying = error.underlying, let failure = connectionFailure(underlying) {
				return .connectionLost(failure)
			}

			return .connectionLost("\(error.code)" + (error.underlying.map { ": \(poolFailure(in: "\($0)") ?? "\($0)")" } ?? ""))
		}

		/**
		What a connection attempt that failed before the server answered means, in one line, or `nil`
		for another error: "cannot connect to 127.0.0.1:5433: Connection refused" (each address tried,
		for a host name with several), "cannot resolve the host name 'db.internal': …", "cannot
		connect: No such file or directory" (a Unix socket).
		*/
		static func connectionFailure(_ error: any Error) -> String? {
			if let error = error as? NIOConnectionError {
				if let dnsError = error.dnsAError ?? error.dnsAAAAError {
					return "cannot resolve the host name '\(error.host)': \(systemReason(in: "\(dnsError)") ?? "\(dnsError)")"
				}

				var failures: [String] = []
				for attempt in error.connectionErrors {
					let address = attempt.target.ipAddress.map { $0.contains(":") ? "[\($0)]" : $0 } ?? error.host
					let failure = "cannot connect to \(address):\(attempt.target.port ?? error.port): \(systemReason(of: attempt.error))"
					if !failures.contains(failure) {
						failures.append(failure)
					}
				}

				return failures.isEmpty ? "cannot connect to \(error.host):\(error.port)" : failures.joined(separator: "; ")
			}

			return error is IOError ? "cannot connect: \(systemReason(of: error))" : nil
		}

		/// The system's words for an I/O error ("Connection refused"), else its description.
		private static func systemReason(of error: any Error) -> String {
			if let error = error as? IOError {
				return String(cString: strerror(error.errnoCode))
			}

			return systemReason(in: "\(error)") ?? "\(error)"
		}

		/// ``connectionFailure(_:)`` from the description of an error that was logged rather than thrown.
		static func connectionFailure(in description: String) -> String? {
			if let start = description.range(of: "DNS error: ") {
				let rest = description[start.upperBound...]
				return "cannot resolve the host name: " + (systemReason(in: String(rest)) ?? String(rest.prefix { $0 != ")" }))
			}

			var failures: [String] = []
			for attempt in description.components(separatedBy: "SingleConnectionFailure(").dropFirst() {
				guard let match = attempt.firstMatch(of: /^target: (?:\[\w+\])?(?:[^\/,]*\/)?([^,\s]+), error: (.*)$/.dotMatchesNewlines()) else {
					continue
				}

				let failure = "cannot connect to \(match.output.1): \(systemReason(in: String(match.output.2)) ?? "failed")"
				if !failures.contains(failure) {
					failures.append(failure)
				}
			}

			if !failures.isEmpty {
				return failures.joined(separator: "; ")
			}

			return systemReason(in: description).map { "cannot connect: \($0)" }
		}

		/// The system's words in a SwiftNIO error's description ("… (error set): Connection refused (errno: 111)" gives
		/// "Connection refused", "…UnknownHost: Name or service not known (error -2)" "Name or service not known").
		private static func systemReason(in description: String) -> String? {
			description.matches(of: /([^:()]+) \((?:errno: |error )-?\d+\)?/).last.map { $0.output.1.trimmingCharacters(in: .whitespaces) }
		}

		/// What the store's connection pool means by one of its errors (`ConnectionPoolError(base: _ConnectionPoolModule…)`), or `nil` for another error.
		static func poolFailure(in description: String) -> String? {
			guard description.contains("ConnectionPoolError") else {
				return nil
			}

			if description.contains("connectionCreationCircuitBreakerTripped") {
				return "no connection could be made: every recent attempt failed, and the pool waits before trying again"
			}

			if description.contains("poolShutdown") {
				return "the store's connections are shut down"
			}

			if description.contains("requestCancelled") {
				return "the wait for a connection was cancelled"
			}

			return "the connection pool failed (\(description))"
		}

		/// The reason alone, for a message that says what failed itself: the server's words when it sent any.
		package var reason: String {
			switch self {
			case .server(let sqlState, let message):
				"\(message) (SQLSTATE \(sqlState))"
			case .connectionLost(let reason):
				reason
			default:
				description
			}
		}
	}
}
#endif
