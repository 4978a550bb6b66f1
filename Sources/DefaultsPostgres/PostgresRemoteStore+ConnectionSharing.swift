#if Postgres
import Defaults
import Foundation

extension Defaults.PostgresRemoteStore {
	/**
	Which processes share one connection to the server.

	With sharing, the processes that use the same server, database, role and
	password, TLS settings, table and namespace through the same folder elect
	one of them, through a lock file in that folder, to connect for all (a
	process shares only a connection it could have opened itself; the folder's
	name holds a hash of these settings, never the password): it holds the `LISTEN`,
	publishes what the others hand it, and keeps a copy of the namespace in the
	folder, which the others read and watch. When it ends, another takes over
	within a second. A host's processes therefore hold at most two connections
	per namespace, however many they are. Sharing is built and tested on Linux;
	on other platforms every process connects on its own.

	```swift
	var options = Defaults.PostgresRemoteStore.Options()
	// The containers of one node share a volume: one connection per node, not per container.
	options.connectionSharing = .through(folder: URL(fileURLWithPath: "/var/lib/settings-relay"))
	let store = try Defaults.PostgresRemoteStore(configuration: configuration, namespace: "web", options: options)
	```
	*/
	public enum ConnectionSharing: Sendable, Hashable {
		/// The processes of one preferences folder (one user of one host) share a connection: the default.
		case perPreferencesFolder
		/// The processes that use `folder` share a connection: a folder every one of them can write, on a local file system
		/// (the lock and the change notices do not cross a network file system).
		case through(folder: URL)
		/// This process connects on its own: it holds the change feed's connection for as long as it runs.
		case none
	}
}
#endif
