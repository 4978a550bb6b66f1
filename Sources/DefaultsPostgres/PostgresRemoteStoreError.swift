#if Postgres
import Defaults
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
			}
		}

		/// The error as the store reports it: the server's own words when it sent any, never the statement's parameters.
		static func from(_ error: any Error) -> Self {
			if let error = error as? Self {
				return error
			}

			guard let error = error as? PSQLError else {
				return .connectionLost(poolFailure(in: "\(error)") ?? "\(error)")
			}

			if let message = error.serverInfo?[.message] {
				return .server(sqlState: error.serverInfo?[.sqlState] ?? "?", message: message)
			}

			return .connectionLost("\(error.code)" + (error.underlying.map { ": \(poolFailure(in: "\($0)") ?? "\($0)")" } ?? ""))
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
		var reason: String {
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
