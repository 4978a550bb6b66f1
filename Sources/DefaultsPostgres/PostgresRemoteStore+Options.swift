#if Postgres
import Defaults

extension Defaults.PostgresRemoteStore {
	/**
	Where the store keeps its rows and how patiently it talks to the server.

	```swift
	var options = Defaults.PostgresRemoteStore.Options()
	options.schema = "settings"
	options.createsTable = false // the table was created by a database administrator
	let store = try Defaults.PostgresRemoteStore(configuration: configuration, namespace: "web", options: options)
	```
	*/
	public struct Options: Sendable, Hashable {
		/// The schema holding the table (created beforehand; the store creates only the table).
		public var schema = "public"
		/// The table's name; it is also the `LISTEN` channel.
		public var table = "defaults_sync"
		/// Whether the store creates the table on first use when it is missing (needs `CREATE` on the schema).
		public var createsTable = true
		/// The longest any one read or publish waits, including the wait for a connection.
		public var operationTimeout: Duration = .seconds(10)
		/// The first delay before reconnecting the change feed or retrying a failed operation; it doubles on each failure.
		public var reconnectDelay: Duration = .milliseconds(100)
		/// The longest delay between reconnection attempts.
		public var maximumReconnectDelay: Duration = .seconds(30)
		/// How often the store reads its namespace again although nothing was announced, to catch changes made
		/// without `NOTIFY` (an administrator's `UPDATE`, a `TRUNCATE`, a restore); `nil` never does.
		public var catchUpInterval: Duration? = .seconds(30)
		/// The most connections the store opens at once, the change feed's `LISTEN` among them; the configuration's own
		/// `maximumConnections` applies when it is lower. Two: the feed, and one for reads and publishes.
		public var maximumConnections = 2
		/// How long a connection for reads and publishes stays open unused; the configuration's own `connectionIdleTimeout`
		/// applies when it is shorter. Shorter than the catch-up interval, so an idle process holds only its `LISTEN` connection.
		public var idleConnectionTimeout: Duration = .seconds(5)
		/// Which processes share one connection to the server: by default, every process with the same preferences
		/// folder (one user of one host) that uses the same server, table and namespace (see ``ConnectionSharing``).
		public var connectionSharing = ConnectionSharing.perPreferencesFolder

		/**
		The defaults: table `public.defaults_sync`, created on first use, 10 s per operation,
		reconnecting after 100 ms doubling up to 30 s, catching up every 30 s, at most two
		connections, the one for statements closed after 5 s unused, and one process of each
		preferences folder connecting for all of them.

		```swift
		var options = Defaults.PostgresRemoteStore.Options()
		options.createsTable = false
		```
		*/
		public init() {}
	}
}
#endif
