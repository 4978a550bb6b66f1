#if Postgres
import Defaults
import Foundation
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
	/// The column of the table problem last reported, so it is reported once until the table is usable again.
	private let tableProblem = Locked<String?>(nil)
	/// Bad rows already reported (namespace, key, column and reason): each is reported once.
	private let reportedRows = Locked<Set<String>>([])
	private static let silent = Logger(label: "DefaultsPostgres.silent") { _ in SwiftLogNoOpLogHandler() }

	init(configuration: PostgresClient.Configuration, table: PostgresSyncTable, options: Defaults.PostgresRemoteStore.Options) {
		// A fleet's processes share the server's connection slots: each holds its feed's, and one for statements only while it works.
		var configuration = configuration
		configuration.options.maximumConnections = max(1, min(configuration.options.maximumConnections, options.maximumConnections))
		configuration.options.minimumConnections = min(configuration.options.minimumConnections, configuration.options.maximumConnections)
		configuration.options.connectionIdleTimeout = min(configuration.options.connectionIdleTimeout, options.idleConnectionTimeout)
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

	/// The entries of `namespace` (only `keys`, when given). A bad row is skipped and reported once, by key and
	/// column; a column of another type makes the table unusable: reported once and thrown.
	func entries(namespace: String, keys: [String]? = nil) async throws -> (entries: [String: Defaults.RemoteEntry], rows: Int) {
		let query = keys.map { table.entriesQuery(namespace: namespace, keys: $0) } ?? table.entriesQuery(namespace: namespace)
		let now = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
		var entries: [String: Defaults.RemoteEntry] = [:]
		var rows = 0
		for row in try await self.rows(of: query) {
			rows += 1
			switch PostgresSyncRow.decode(row) {
			case .entry(let key, let entry):
				if let reason = entry.timestamp.implausibility(at: now) {
					reportBadRow(key: key, namespace: namespace, column: entry.timestamp.counter > Defaults.SyncTimestamp.maximumCounter ? "counter" : "wall_ms", "stamped \(entry.timestamp), which no real clock gives: \(reason)")
				} else {
					entries[key] = entry
				}
			case .bad(let key, let column, let reason):
				reportBadRow(key: key, namespace: namespace, column: column, reason)
			case .unusableTable(let column, let problem):
				throw unusable(column: column, problem)
			}
		}

		tableProblem.withLock { $0 = nil }
		return (entries, rows)
	}

	/// Offers `rows`; returns the keys the table took (the others hold a stamp at least as new, or the table is unusable).
	func publish(_ rows: [PostgresSyncRow], namespace: String, origin: String) async throws -> Set<String> {
		var applied: Set<String> = []
		for row in try await self.rows(of: table.upsertQuery(namespace: namespace, origin: origin, rows: rows)) {
			applied.formUnion(try row.decode([String].self))
		}

		return applied
	}

	/**
	Runs `query` on a connection leased for it alone, and reads every row
	before handing the connection back. The pool's own `query` can keep the
	connection leased for good when the server refuses the statement before
	its rows are read, which would leave the store without a connection for
	statements (its budget is two, the feed's among them).
	*/
	private func rows(of query: PostgresQuery) async throws -> [PostgresRow] {
		try await client.withConnection { connection in
			var rows: [PostgresRow] = []
			for try await row in try await connection.query(query, logger: Self.silent) {
				rows.append(row)
			}

			return rows
		}
	}

	/// Throws when a column the store uses is missing or has another type (a table altered under the store).
	func checkColumns() async throws {
		var types: [String: String] = [:]
		for row in try await rows(of: table.columnTypesQuery()) {
			let (name, type) = try row.decode((String, String).self)
			types[name] = type
		}

		for column in PostgresSyncTable.columns where types[column.name] != column.sqlType {
			throw unusable(column: column.name, (types[column.name].map { "is of type \($0)" } ?? "is missing") + ", not of type \(column.sqlType)")
		}

		tableProblem.withLock { $0 = nil }
	}

	/// The error for an unusable table, reported the first time it is found (not per row, not per attempt).
	private func unusable(column: String, _ problem: String) -> Defaults.PostgresRemoteStoreError {
		let reason = "its column \(column) \(problem)"
		let isNew = tableProblem.withLock { reported in
			defer { reported = column }
			return reported != column
		}

		if isNew {
			DiagnosticReporter.report(.syncFailed, key: nil, "the table \(table.qualifiedName) cannot hold synced entries: \(reason); nothing is written until it is repaired, then this device's values are published again")
		}

		return .unusableTable("\(table.qualifiedName): \(reason)")
	}

	private func reportBadRow(key: String, namespace: String, column: String, _ reason: String) {
		if reportedRows.withLock({ $0.insert("\(namespace)\u{0}\(key)\u{0}\(column)\u{0}\(reason)").inserted }) {
			DiagnosticReporter.report(.undecodableValue, key: key, "the row in \(table.qualifiedName), namespace '\(namespace)', is skipped: column \(column): \(reason)")
		}
	}

	private func createTableIfNeeded() async throws {
		guard options.createsTable, !tableIsReady.withLock({ $0 }) else {
			return
		}

		var exists = false
		for row in try await rows(of: table.existenceQuery()) {
			exists = try row.decode(String?.self) != nil
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
