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
	`PostgresClient.Configuration`. Give each process its own store: the
	processes of one host share one connection (see
	``Options/connectionSharing``), one of them connecting for all, so a fleet
	holds at most two connections per host however many processes it runs.
	Changes are signed with ``device`` (by default the machine's ID) and a tag
	of the process, so replicas of one image never make equal stamps; give
	each machine cloned from one image its own name.

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

		/// This process's own connection: used directly without sharing, and by the process connecting for its host's others.
		private let direct: PostgresDirectStore
		/// The host's shared connection, when this store shares one (``Options/connectionSharing``).
		private let relay: HostRelay?

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
			direct = try PostgresDirectStore(configuration: configuration, namespace: namespace, options: options)
			relay = HostRelay.sharing(direct, configuration: configuration, options: options)
		}

		deinit {
			relay?.stop()
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
			if let relay {
				return try await relay.entries()
			}

			return try await direct.entries()
		}

		public func publish(_ entries: [String: RemoteEntry]) async throws {
			if let relay {
				try await relay.publish(entries)
			} else {
				try await direct.publish(entries)
			}
		}

		public func changes() -> AsyncStream<Set<String>> {
			relay?.changes() ?? direct.changes()
		}
	}
}
#endif
