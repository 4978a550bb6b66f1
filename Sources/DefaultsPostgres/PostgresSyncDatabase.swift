#if Postgres
import Defaults
import Logging
import PostgresNIO

/// The store's connection to its table: a `PostgresClient` (a connection pool), every statement with a deadline,
/// and the table created on first use.
final class PostgresSyncDatabase: Sendable {
	let client: PostgresClient
	let table: PostgresSyncTable
	let options: Defaults.PostgresRemoteStore.Options
	let connectionErrors = ConnectionErrorRecorder()
	private let tableIsReady = Locked(false)
	private static let silent = Logger(label: "DefaultsPostgres.silent") { _ in SwiftLogNoOpLogHandler() }

	init(configuration: PostgresClient.Configuration, table: PostgresSyncTable, options: Defaults.PostgresRemoteStore.Options) {
		client = PostgresClient(configuration: configuration, backgroundLogger: connectionErrors.logger())
		self.table = table
		self.options = options
	}

	/// Runs `operation` once the table exists, within the operation timeout; any failure becomes a ``Defaults/PostgresRemoteStoreError``.
	func run<Value: Sendable>(_ operation: @escaping @Sendable (PostgresSyncDatabase) async throws -> Value) async throws(Defaults.PostgresRemoteStoreError) -> Value {
		let timeout = options.operationTimeout
		do {
			return try await withDeadline(timeout, onTimeout: { [connectionErrors] in
				Defaults.PostgresRemoteStoreError.unreachable(after: timeout, lastConnectionError: connectionErrors.lastError)
			}) {
				try await self.createTableIfNeeded()
				return try await operation(self)
			}
		} catch {
			throw failure(error)
		}
	}

	/// `error` as the store reports it, with the reason the last connection attempt failed when the error itself
	/// does not say (the pool's circuit breaker, for one, fails requests without the cause).
	func failure(_ error: any Error) -> Defaults.PostgresRemoteStoreError {
		let failure = Defaults.PostgresRemoteStoreError.from(error)
		if case .connectionLost(let reason) = failure, let cause = connectionErrors.lastError {
			return .connectionLost("\(reason) (last connection error: \(cause))")
		}

		return failure
	}

	func entries(namespace: String) async throws -> [String: Defaults.RemoteEntry] {
		let rows = try await client.query(table.entriesQuery(namespace: namespace))
		var entries: [String: Defaults.RemoteEntry] = [:]
		for try await (key, value, tombstone, milliseconds, counter, device) in rows.decode((String, ByteBuffer?, Bool, Int64, Int64, String).self) {
			guard let entry = PostgresSyncRow.entry(value: value, tombstone: tombstone, milliseconds: milliseconds, counter: counter, device: device) else {
				DiagnosticReporter.report(.undecodableValue, key: key, "the row in \(table.qualifiedName), namespace '\(namespace)', does not hold a stored value; ignored")
				continue
			}

			entries[key] = entry
		}

		return entries
	}

	/// Offers `rows`; returns how many keys changed.
	@discardableResult
	func publish(_ rows: [PostgresSyncRow], namespace: String, origin: String) async throws -> Int {
		let result = try await client.query(table.upsertQuery(namespace: namespace, origin: origin, rows: rows))
		var changed = 0
		for try await count in result.decode(Int64.self) {
			changed = Int(count)
		}

		return changed
	}

	private func createTableIfNeeded() async throws {
		guard options.createsTable, !tableIsReady.withLock({ $0 }) else {
			return
		}

		var exists = false
		for try await name in try await client.query(table.existenceQuery()).decode(String?.self) {
			exists = name != nil
		}

		if !exists {
			try await client.withConnection { connection in
				try await connection.withTransaction(logger: Self.silent) { connection in
					_ = try await connection.query(self.table.creationLockQuery(), logger: Self.silent)
					for statement in self.table.creationStatements {
						_ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: Self.silent)
					}
				}
			}
		}

		tableIsReady.withLock { $0 = true }
	}
}
#endif
