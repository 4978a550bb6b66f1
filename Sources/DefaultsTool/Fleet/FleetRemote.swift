import Defaults
import Foundation

/**
A fleet's remote store, opened by the tool, with the name it goes by in messages.

The store is the library's own (`SharedFolderRemoteStore`,
`PostgresRemoteStore`), so the tool reads and writes exactly what the fleet's
processes do, with the same validation.
*/
struct FleetRemote: Sendable {
	let store: any Defaults.RemoteStore
	/// "the shared folder /srv/sync" or "namespace 'billing' of PostgreSQL".
	let name: String
	/// The name this tool signs its writes with.
	let device: String

	/// Opens the remote at `location`; `forWriting`: a PostgreSQL table is created when missing, as a publishing process
	/// creates it (reading never creates one, so a mistyped `--table` fails instead of leaving an empty table behind).
	init(_ location: FleetRemoteOptions.Location, device: String, forWriting: Bool) throws {
		self.device = device
		switch location {
		case .folder(let folder):
			guard FileManager.default.fileExists(atPath: folder.path) else {
				// The store would create it: a mistyped path must not start an empty fleet.
				throw ToolError.noSuchFolder(path: folder.path)
			}

			do {
				store = try Defaults.SharedFolderRemoteStore(folder: folder, device: device)
			} catch .invalidSuiteName(let name) {
				throw ToolError.invalidFleetName(name, reason: "a device name must be a file name (no '/', not empty, '.' or '..', at most \(PreferencesLocation.longestSuiteName) bytes)")
			} catch {
				throw ToolError.fleetRemoteFailed(remote: "the shared folder \(folder.path)", reason: error.description)
			}

			name = "the shared folder \(folder.path)"
		case .postgres(let url, let namespace, let table, let schema):
			#if Postgres
			name = "namespace '\(namespace)' of PostgreSQL"
			store = try PostgresConnection.store(url: url, namespace: namespace, table: table, schema: schema, device: device, createsTable: forWriting, remote: name)
			#else
			_ = (url, namespace, table, schema, forWriting)
			throw ToolError.builtWithoutPostgres
			#endif
		}
	}

	/// Runs `body` against the store, turning what the store throws into one line that names the remote.
	func perform<Value: Sendable>(_ body: @escaping @Sendable (any Defaults.RemoteStore) async throws -> Value) throws -> Value {
		let (store, name) = (store, name)
		return try BlockingTask.run {
			do {
				return try await body(store)
			} catch let error as ToolError {
				throw error
			} catch {
				throw ToolError.fleetRemoteFailed(remote: name, reason: "\(error)")
			}
		}
	}
}
