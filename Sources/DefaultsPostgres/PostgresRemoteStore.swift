#if Postgres
import Defaults
import Foundation
import PostgresNIO

/// The PostgreSQL remote store, in the `Defaults` namespace like the library's other stores.
extension Defaults {
	/**
	A remote store in a PostgreSQL table, for a fleet of services that share settings
	(feature switches, limits, maintenance mode) and see each other's changes live.

	Each synced key is one row per namespace holding its stored value, its
	hybrid-logical-clock timestamp and a tombstone flag. "Newer wins" is decided
	by PostgreSQL in one upsert, so publishers racing from many instances never
	reorder or lose a newer value. Changes are announced with `NOTIFY`; after a
	lost connection the store reconnects with backoff and catches up with one
	read. A ``namespace`` keeps the tenants of one database apart. The table is
	created on first use unless ``Options/createsTable`` is off.

	The connection (host, credentials, TLS) comes from your
	`PostgresClient.Configuration`; the store runs its own `PostgresClient`.
	Give each process its own store: a store does not announce its own
	publications to itself. Changes are signed with ``device`` (by default the
	machine's ID) and a tag of the process, so replicas of one image never make
	equal stamps; give each machine cloned from one image its own name.

	A publication the table refuses because it holds a newer change is noticed:
	the key is read again at once, the newer value adopted (the clock moves
	past it) and the lost write reported. A row that no device could have
	written (a `NULL` stamp column, an undecodable value, a stamp beyond what a
	real clock gives) is skipped and reported once by key and column, and is
	replaced by the next write. A namespace found emptied (`TRUNCATE`, a
	restore) is reported and filled again with what every device holds; a
	table whose columns changed type is reported once and written again once
	it is repaired.

	```swift
	import DefaultsPostgres
	import PostgresNIO

	extension Defaults.Keys {
		static let maintenanceMode = Key<Bool>("maintenanceMode", default: false, iCloud: true)
	}

	let configuration = PostgresClient.Configuration(
		host: "db.internal",
		username: "app",
		password: ProcessInfo.processInfo.environment["SETTINGS_DB_PASSWORD"],
		database: "settings",
		tls: .require(.makeClientConfiguration())
	)
	Defaults.iCloud.remote = try Defaults.PostgresRemoteStore(configuration: configuration, namespace: "billing-production")
	Defaults[.maintenanceMode] = true // every instance in the namespace sees it within milliseconds
	```
	*/
	public final class PostgresRemoteStore: RemoteStore {
		/// The tenant of the table this store reads and writes.
		public let namespace: String
		/// The name this device's changes are signed with (a tag of the process is added).
		public let device: String
		public let limits = RemoteLimits.unlimited

		private let database: PostgresSyncDatabase
		private let client: Task<Void, Never>
		/// Tells this store's own notifications apart from other processes' ones.
		private let origin = UUID().uuidString
		private let subscribers = Locked<[UUID: AsyncStream<Set<String>>.Continuation]>([:])
		private let retry: Locked<(backoff: Backoff, isScheduled: Bool)>
		/// Whether the last full read found rows: a namespace that empties is reported once.
		private let heldRows = Locked(false)

		/**
		A store for `namespace` (1 to 200 bytes of UTF-8) in the database `configuration` connects to,
		signing changes as `device` (by default the machine's ID).

		```swift
		let store = try Defaults.PostgresRemoteStore(configuration: configuration, namespace: "staging", device: "web-1")
		```
		*/
		public init(configuration: PostgresClient.Configuration, namespace: String, device: String? = nil, options: Options = Options()) throws(PostgresRemoteStoreError) {
			guard (1...200).contains(namespace.utf8.count), !namespace.utf8.contains(0) else {
				throw .invalidName(namespace, reason: "a namespace must be 1 to 200 bytes of UTF-8, without NUL")
			}

			let device = device ?? DeviceIdentity.current
			guard (1...200).contains(device.utf8.count), !device.utf8.contains(0) else {
				throw .invalidName(device, reason: "a device name must be 1 to 200 bytes of UTF-8, without NUL")
			}

			self.namespace = namespace
			self.device = device
			database = try PostgresSyncDatabase(configuration: configuration, table: PostgresSyncTable(schema: options.schema, name: options.table), options: options)
			client = Task.detached { [database] in await database.client.run() }
			retry = Locked((Backoff(initial: options.reconnectDelay, maximum: options.maximumReconnectDelay), false))
		}

		deinit {
			for continuation in subscribers.withLock({ Array($0.values) }) {
				continuation.finish()
			}

			client.cancel()
		}

		/**
		The statements that create the table (the current schema version), for a
		database administrator to run ahead when the store's role may not create tables.

		```swift
		for statement in try Defaults.PostgresRemoteStore.schemaStatements() { print(statement + ";") }
		```
		*/
		public static func schemaStatements(options: Options = Options()) throws(PostgresRemoteStoreError) -> [String] {
			try PostgresSyncTable(schema: options.schema, name: options.table).creationStatements
		}

		/// The name changes are signed with: ``device``.
		public var deviceIdentity: String? {
			device
		}

		public func entries() async throws -> [String: RemoteEntry] {
			let (entries, rows) = try await perform { [namespace] database in try await database.entries(namespace: namespace) }
			let wasHeld = heldRows.withLock { held in
				defer { held = rows > 0 }
				return held
			}

			if wasHeld, rows == 0 {
				DiagnosticReporter.report(.syncFailed, key: nil, "the table holds no entry of namespace '\(namespace)' any more (a TRUNCATE, a restore?); publishing again what this device holds")
			}

			return entries
		}

		public func publish(_ entries: [String: RemoteEntry]) async throws {
			var rows: [PostgresSyncRow] = []
			for (key, entry) in entries {
				if let row = PostgresSyncRow(key: key, entry: entry) {
					rows.append(row)
				} else {
					DiagnosticReporter.report(.syncFailed, key: key, "not synced: the value cannot be written as a property list; it stays on this device")
				}
			}

			guard !rows.isEmpty else {
				return
			}

			let refused = try await perform { [rows, namespace, origin] database in
				let applied = try await database.publish(rows, namespace: namespace, origin: origin)
				let refused = rows.filter { !applied.contains($0.key) }
				if !refused.isEmpty {
					// Nothing written at all may mean a table altered under the store: that throws, and is retried.
					try await database.checkColumns()
				}

				return refused
			}

			if !refused.isEmpty {
				try await noticeRefusals(of: entries.filter { entry in refused.contains { $0.key == entry.key } })
			}
		}

		/// Reads again the keys the table refused to take: a newer entry there is a conflict this device lost.
		/// It is reported, and announced on the change feeds, so the synchroniser adopts it (and its clock moves past it).
		private func noticeRefusals(of offered: [String: RemoteEntry]) async throws {
			let (stored, _) = try await perform { [namespace] database in try await database.entries(namespace: namespace, keys: Array(offered.keys)) }
			var lost: Set<String> = []
			for (key, entry) in offered.sorted(by: { $0.key < $1.key }) {
				guard let newer = stored[key], newer.timestamp > entry.timestamp else {
					// The same entry (published before), or a row that is skipped and reported.
					continue
				}

				lost.insert(key)
				DiagnosticReporter.report(.syncFailed, key: key, "this device's change stamped \(entry.timestamp) was refused: the table holds a newer one, stamped \(newer.timestamp); adopting it")
			}

			if !lost.isEmpty {
				for continuation in subscribers.withLock({ Array($0.values) }) {
					continuation.yield(lost)
				}
			}
		}

		public func changes() -> AsyncStream<Set<String>> {
			let (stream, continuation) = AsyncStream.makeStream(of: Set<String>.self)
			let id = UUID()
			let feed = Task.detached { [database, namespace, origin] in
				await database.followChanges(namespace: namespace, origin: origin, into: continuation)
			}
			let catchUp = database.options.catchUpInterval.map { interval in
				Task.detached {
					while (try? await Task.sleep(for: interval)) != nil {
						continuation.yield([])
					}
				}
			}
			subscribers.withLock { $0[id] = continuation }
			continuation.onTermination = { [weak self] _ in
				feed.cancel()
				catchUp?.cancel()
				self?.subscribers.withLock { $0[id] = nil }
			}

			return stream
		}

		/// Runs a database operation; after a failure, the change feeds announce "anything may have changed"
		/// once a backoff has passed, so the synchroniser reads again and republishes what did not arrive.
		@discardableResult
		private func perform<Value: Sendable>(_ operation: @escaping @Sendable (PostgresSyncDatabase) async throws -> Value) async throws -> Value {
			do {
				let value = try await database.run(operation)
				retry.withLock { $0.backoff.reset() }
				return value
			} catch {
				scheduleRetry()
				throw error
			}
		}

		private func scheduleRetry() {
			let delay = retry.withLock { retry -> Duration? in
				guard !retry.isScheduled else {
					return nil
				}

				retry.isScheduled = true
				return retry.backoff.delay()
			}

			guard let delay else {
				return
			}

			Task.detached { [weak self] in
				try? await Task.sleep(for: delay)
				guard let self else {
					return
				}

				retry.withLock { $0.isScheduled = false }
				for continuation in subscribers.withLock({ Array($0.values) }) {
					continuation.yield([])
				}
			}
		}
	}
}
#endif
