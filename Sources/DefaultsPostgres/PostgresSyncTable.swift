#if Postgres
import Defaults
import PostgresNIO

/**
The table synced entries live in, and every statement the store runs on it.

Values always travel as bind parameters. The table's and schema's names are
identifiers, which SQL cannot bind, so they are checked against a strict
pattern (lowercase letters, digits, `_`) before they are quoted into a statement.
*/
struct PostgresSyncTable: Sendable {
	let schema: String
	let name: String

	/// The most bytes of a `NOTIFY` payload sent with key names; PostgreSQL's limit is 8000.
	static let maximumPayloadBytes = 7_900

	init(schema: String, name: String) throws(Defaults.PostgresRemoteStoreError) {
		for identifier in [schema, name] where !Self.isPlainIdentifier(identifier) {
			throw .invalidName(identifier, reason: "a schema or table name must be 1 to 63 lowercase ASCII letters, digits or '_', not starting with a digit")
		}

		self.schema = schema
		self.name = name
	}

	private static func isPlainIdentifier(_ text: String) -> Bool {
		guard let first = text.utf8.first, text.utf8.count <= 63, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
			return false
		}

		return text.utf8.allSatisfy { byte in
			(UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
		}
	}

	/// The table's name as SQL writes it.
	var qualifiedName: String {
		"\"\(schema)\".\"\(name)\""
	}

	/// The `LISTEN` channel: every namespace of the table shares it; payloads name the namespace.
	var channel: String {
		name
	}

	/// The statements that create the table (version 1 of the schema), for a database administrator to run ahead.
	var creationStatements: [String] {
		[
			"""
			CREATE TABLE IF NOT EXISTS \(qualifiedName) (
				namespace text COLLATE "C" NOT NULL,
				key text COLLATE "C" NOT NULL,
				value bytea,
				tombstone boolean NOT NULL,
				wall_ms bigint NOT NULL,
				counter bigint NOT NULL CHECK (counter BETWEEN 0 AND 4294967295),
				device text COLLATE "C" NOT NULL,
				updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
				PRIMARY KEY (namespace, key)
			)
			""",
			"COMMENT ON TABLE \(qualifiedName) IS 'Defaults sync entries, schema version 1'",
		]
	}

	/// `NULL` when the table does not exist yet.
	func existenceQuery() -> PostgresQuery {
		"SELECT to_regclass(\(qualifiedName))::text"
	}

	/// Serialises schema creation between processes that start at once (two `CREATE TABLE IF NOT EXISTS` can otherwise collide).
	func creationLockQuery() -> PostgresQuery {
		"SELECT pg_advisory_xact_lock(hashtext(\(qualifiedName)))"
	}

	/// The columns the store reads and writes, with the type each must have.
	static let columns: [(name: String, sqlType: String, dataType: PostgresDataType)] = [
		("key", "text", .text), ("value", "bytea", .bytea), ("tombstone", "boolean", .bool),
		("wall_ms", "bigint", .int8), ("counter", "bigint", .int8), ("device", "text", .text),
	]

	/// The highest counter and how far ahead of the server's clock a stored stamp may be: a row beyond them is replaceable.
	private static let plausibility = "stored.counter > \(Defaults.SyncTimestamp.maximumCounter) OR stored.wall_ms > (extract(epoch FROM clock_timestamp()) * 1000)::bigint + \(Defaults.SyncTimestamp.maximumLead)"

	/// The columns as the store reads them, in the order of ``columns``.
	private static var columnList: String {
		columns.map(\.name).joined(separator: ", ")
	}

	func entriesQuery(namespace: String) -> PostgresQuery {
		"SELECT \(unescaped: Self.columnList) FROM \(unescaped: qualifiedName) WHERE namespace = \(namespace)"
	}

	func entriesQuery(namespace: String, keys: [String]) -> PostgresQuery {
		"SELECT \(unescaped: Self.columnList) FROM \(unescaped: qualifiedName) WHERE namespace = \(namespace) AND key = ANY(\(keys)::text[])"
	}

	/// Every column of the table with its type (`name`, `format_type`), to compare with ``columns``.
	func columnTypesQuery() -> PostgresQuery {
		"SELECT attname::text, format_type(atttypid, NULL) FROM pg_attribute WHERE attrelid = \(qualifiedName)::regclass AND attnum > 0 AND NOT attisdropped"
	}

	/// True in SQL when every column the store uses has its type: a table altered under the store takes no rows it could not read back.
	private var columnsAreUsable: String {
		let expected = Self.columns.map { "('\($0.name)', '\($0.sqlType)')" }.joined(separator: ", ")
		return """
			(SELECT count(*) FROM pg_attribute WHERE attrelid = '\(qualifiedName)'::regclass AND NOT attisdropped
				AND (attname::text, format_type(atttypid, NULL)) IN (\(expected))) = \(Self.columns.count)
			"""
	}

	/**
	One statement that offers every row and keeps, per key, the later timestamp.

	The comparison runs inside `ON CONFLICT … DO UPDATE … WHERE`, on the row
	locked by the upsert, so publishers racing on one key are serialised by
	PostgreSQL and an older entry never replaces a newer one. A stored row no
	device could have written (a `NULL` in a stamp column, a counter or a
	time beyond what a real clock gives) is replaced by any entry, and an
	entry with the stored stamp replaces a row whose value differs (damaged).
	When a column has lost its type, nothing is written. The keys it
	changed are announced with `pg_notify`, which PostgreSQL delivers on
	commit: listeners never hear of a change they cannot read yet. A payload
	too long for `NOTIFY` names only the namespace ("re-read it all").
	Returns the keys changed as one row, or no row when none changed.
	*/
	func upsertQuery(namespace: String, origin: String, rows: [PostgresSyncRow]) -> PostgresQuery {
		let rows = rows.sorted { $0.key < $1.key }
		let keys = rows.map(\.key)
		let values = rows.map(\.value)
		let tombstones = rows.map(\.tombstone)
		let wallClock = rows.map(\.milliseconds)
		let counters = rows.map(\.counter)
		let devices = rows.map(\.device)
		return """
			WITH incoming AS (
				SELECT * FROM unnest(\(keys)::text[], \(values)::bytea[], \(tombstones)::boolean[], \(wallClock)::bigint[], \(counters)::bigint[], \(devices)::text[])
					AS incoming (key, value, tombstone, wall_ms, counter, device)
			),
			applied AS (
				INSERT INTO \(unescaped: qualifiedName) AS stored (namespace, key, value, tombstone, wall_ms, counter, device)
				SELECT \(namespace)::text, key, CASE WHEN tombstone THEN NULL ELSE value END, tombstone, wall_ms, counter, device
				FROM incoming WHERE \(unescaped: columnsAreUsable) ORDER BY key
				ON CONFLICT (namespace, key) DO UPDATE SET
					value = excluded.value, tombstone = excluded.tombstone, wall_ms = excluded.wall_ms,
					counter = excluded.counter, device = excluded.device, updated_at = clock_timestamp()
				WHERE (excluded.wall_ms, excluded.counter, excluded.device) > (stored.wall_ms, stored.counter, stored.device)
					OR ((excluded.wall_ms, excluded.counter, excluded.device) = (stored.wall_ms, stored.counter, stored.device)
						AND (excluded.value, excluded.tombstone) IS DISTINCT FROM (stored.value, stored.tombstone))
					OR stored.wall_ms IS NULL OR stored.counter IS NULL OR stored.device IS NULL OR stored.tombstone IS NULL
					OR \(unescaped: Self.plausibility)
				RETURNING key
			),
			change AS (
				SELECT count(*) AS changed, array_agg(key) AS keys, json_build_object('n', \(namespace)::text, 'o', \(origin)::text, 'k', json_agg(key))::text AS payload
				FROM applied
			)
			SELECT change.keys FROM change, LATERAL (
				SELECT pg_notify(\(channel)::text, CASE
					WHEN octet_length(change.payload) <= \(Self.maximumPayloadBytes) THEN change.payload
					ELSE json_build_object('n', \(namespace)::text, 'o', \(origin)::text)::text
				END)
				WHERE change.changed > 0
			) AS notified
			"""
	}
}

/// One entry as the table stores it.
struct PostgresSyncRow: Sendable {
	var key: String
	/// Empty for a tombstone (the statement stores `NULL`): a `bytea[]` parameter cannot hold `NULL`s here.
	var value: ByteBuffer
	var tombstone: Bool
	var milliseconds: Int64
	var counter: Int64
	var device: String
}
#endif
