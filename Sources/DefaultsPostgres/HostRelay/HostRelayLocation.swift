#if Postgres
import Defaults
import Foundation
import PostgresNIO
#if canImport(Glibc)
import Glibc
#endif

/// Where the processes that share a connection meet: one folder per connection identity (server, database, role and
/// password, TLS settings), table and namespace, inside the folder ``Defaults/PostgresRemoteStore/ConnectionSharing`` names.
enum HostRelayLocation {
	/// The folder of the preferences folder that holds the relays: `<preferences folder>/defaults-relay`.
	static let relaysFolderName = "defaults-relay"

	/// The relay folder for a store, or `nil` when it shares no connection.
	static func folder(
		for sharing: Defaults.PostgresRemoteStore.ConnectionSharing,
		configuration: PostgresClient.Configuration,
		options: Defaults.PostgresRemoteStore.Options,
		namespace: String
	) throws(Defaults.PersistenceError) -> URL? {
		let parent: URL
		switch sharing {
		case .none:
			return nil
		case .perPreferencesFolder:
			parent = try PreferencesLocation.folder().appendingPathComponent(relaysFolderName, isDirectory: true)
		case .through(let folder):
			parent = folder
		}

		return parent.appendingPathComponent("postgres-" + key(configuration: configuration, options: options, namespace: namespace), isDirectory: true)
	}

	/**
	What the relay connects to and as whom, as the encoding ``key(configuration:options:namespace:)``
	hashes: two stores share a relay only when these are equal. Every field that decides what
	a connection may do is in it (the server, the database, the role and its password, the TLS
	settings, the table and the namespace), so a process shares only a connection it could
	have opened itself: a leader with a stale password, or one without the TLS another
	requires, leads only the processes configured as it is. Each field is preceded by its
	length, so no two lists of fields encode alike.
	*/
	static func identity(configuration: PostgresClient.Configuration, options: Defaults.PostgresRemoteStore.Options, namespace: String) -> [UInt8] {
		let endpoint = configuration.unixSocketPath.map { "unix:" + $0 } ?? "tcp:\(configuration.host ?? ""):\(configuration.port ?? 5432)"
		// The TLS mode and its whole configuration (verification, trust roots, client certificate) as Swift describes them:
		// PostgresNIO exposes no other view. A description that differs only makes processes connect on their own.
		let tls = String(reflecting: configuration.tls) + "\u{0}" + (configuration.options.tlsServerName ?? "")
		let fields = [
			"defaults-relay/postgres/3", endpoint, configuration.database ?? "", configuration.username, configuration.password.map { "password:" + $0 } ?? "none",
			tls, options.schema, options.table, namespace,
		]
		var encoding: [UInt8] = []
		for field in fields {
			let bytes = Array(field.utf8)
			encoding += withUnsafeBytes(of: UInt64(bytes.count).bigEndian, Array.init)
			encoding += bytes
		}

		return encoding
	}

	/// How many times the identity is hashed, so each guess at a password from a folder's name costs 256 hashes
	/// (0.3 ms in a release build, 9 ms in a debug one, paid once per store: a host may start hundreds of processes at once).
	static let hashRounds = 256

	/**
	The relay folder's key: 32 hexadecimal digits (128 bits) of SHA-256 applied
	``hashRounds`` times over the ``identity(configuration:options:namespace:)``,
	stable across processes and releases (unlike `hashValue`). The password is
	only ever in the hash: no folder or file of the relay holds it, and the
	rounds make each guess at it from a folder's name cost that many hashes.
	*/
	static func key(configuration: PostgresClient.Configuration, options: Defaults.PostgresRemoteStore.Options, namespace: String) -> String {
		let identity = identity(configuration: configuration, options: options, namespace: namespace)
		var digest = SHA256.hash(identity)
		for _ in 1..<hashRounds {
			digest = SHA256.hash(digest + identity)
		}

		return digest.prefix(16).map { byte in
			let hex = String(byte, radix: 16)
			return byte < 16 ? "0" + hex : hex
		}.joined()
	}

	/**
	Why the processes of this user cannot trust `folder` with what they publish, or `nil` when they can.

	The leader publishes whatever the outbox holds, with its own credentials: a
	folder another user can write to (or swap for their own, through its parent)
	would let that user publish to the fleet. The folder must be a real folder,
	this user's, writable by no one else; its parent must be writable by no one
	else either, unless it is sticky (like `/tmp`), where only owners rename.
	*/
	static func trustProblem(of folder: URL) -> String? {
		var status = stat()
		guard lstat(folder.path, &status) == 0 else {
			return "cannot be examined (\(String(cString: strerror(errno))))"
		}

		guard status.st_mode & S_IFMT == S_IFDIR else {
			return "is not a folder (a symbolic link?)"
		}

		guard status.st_uid == geteuid(), status.st_mode & 0o022 == 0 else {
			return "belongs to another user or others may write to it"
		}

		// Read-only (a remount, a chmod): nobody can lead in it, so each process connects on its own.
		guard access(folder.path, W_OK | X_OK) == 0 else {
			return "cannot be written (\(String(cString: strerror(errno))))"
		}

		var parent = stat()
		guard stat(folder.deletingLastPathComponent().path, &parent) == 0 else {
			return "has a parent that cannot be examined"
		}

		// Whoever owns the parent, or may write to it without the sticky bit, may rename the folder and put another in its place.
		if parent.st_mode & S_ISVTX == 0, parent.st_mode & 0o022 != 0 || (parent.st_uid != geteuid() && parent.st_uid != 0) {
			return "is in a folder others may write to or own (and so rename it)"
		}

		return nil
	}
}
#endif
