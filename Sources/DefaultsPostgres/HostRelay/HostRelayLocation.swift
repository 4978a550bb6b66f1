#if Postgres
import Defaults
import Foundation
import PostgresNIO
#if canImport(Glibc)
import Glibc
#endif

/// Where the processes that share a connection meet: one folder per server, database, role, table and namespace,
/// inside the folder ``Defaults/PostgresRemoteStore/ConnectionSharing`` names.
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

		return parent.appendingPathComponent("postgres-" + fingerprint(of: target(configuration: configuration, options: options, namespace: namespace)), isDirectory: true)
	}

	/// What the relay connects to, as one line: two stores share a relay only when these are equal.
	static func target(configuration: PostgresClient.Configuration, options: Defaults.PostgresRemoteStore.Options, namespace: String) -> String {
		let endpoint = configuration.unixSocketPath ?? "\(configuration.host ?? ""):\(configuration.port ?? 5432)"
		return [endpoint, configuration.database ?? "", configuration.username, options.schema, options.table, namespace].joined(separator: "\u{0}")
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

	/// 64-bit FNV-1a, in hex: short enough for a file name, and stable across processes and releases (unlike `hashValue`).
	static func fingerprint(of text: String) -> String {
		var hash: UInt64 = 0xcbf2_9ce4_8422_2325
		for byte in text.utf8 {
			hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01b3
		}

		let hex = String(hash, radix: 16)
		return String(repeating: "0", count: 16 - hex.count) + hex
	}
}
#endif
