import ArgumentParser
import Defaults
import Foundation

/// Chooses the fleet's remote: a shared folder (`--folder`) or a PostgreSQL namespace (`--postgres`, `--namespace`).
struct FleetRemoteOptions: ParsableArguments {
	/// How every fleet verb's usage line spells these options.
	static let usage = "(--folder <path> | --postgres --namespace <name>)"

	@Option(name: .long, help: ArgumentHelp("The shared folder the fleet syncs through (Defaults.SharedFolderRemoteStore).", valueName: "path"), completion: .directory)
	var folder: String?

	@Flag(name: .long, help: "The fleet's PostgreSQL table (Defaults.PostgresRemoteStore); the connection comes from PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE and PGSSLMODE.")
	var postgres = false

	@Option(name: .customLong("postgres-url"), help: ArgumentHelp("The PostgreSQL connection as postgres://user@host:port/database?sslmode=require (implies --postgres); what it leaves out comes from the PG variables.", valueName: "url"))
	var postgresURL: String?

	@Option(name: .long, help: ArgumentHelp("The namespace of the table that the fleet's processes use (required with --postgres).", valueName: "name"))
	var namespace: String?

	@Option(name: .long, help: ArgumentHelp("The table (default defaults_sync), with --postgres.", valueName: "name"))
	var table: String?

	@Option(name: .long, help: ArgumentHelp("The table's schema (default public), with --postgres.", valueName: "name"))
	var schema: String?

	@Option(name: .long, help: ArgumentHelp("The device name writes are signed with (with --folder, also its journal's name); default defaults-tool@<host name>.", valueName: "name"))
	var device: String?

	/// Where the remote is, checked before anything is opened.
	enum Location: Equatable {
		case folder(URL)
		case postgres(url: String?, namespace: String, table: String?, schema: String?)
	}

	/// The remote the options name, or the usage mistake that leaves it unclear.
	func location(usage: String) throws -> Location {
		let wantsPostgres = postgres || postgresURL != nil
		switch (folder, wantsPostgres) {
		case (nil, false):
			throw ToolError.missingFleetRemote(usage: usage)
		case (.some, true):
			throw ToolError.conflictingFleetRemotes(usage: usage)
		case (let folder?, false):
			if namespace != nil || table != nil || schema != nil {
				throw ToolError.postgresOnlyOption(usage: usage)
			}

			return .folder(URL(fileURLWithPath: (folder as NSString).expandingTildeInPath))
		case (nil, true):
			guard let namespace else {
				throw ToolError.missingNamespace(usage: usage)
			}

			return .postgres(url: postgresURL, namespace: namespace, table: table, schema: schema)
		}
	}

	/// The name this tool signs its writes with: `--device`, else `defaults-tool@<host name>`.
	var signature: String {
		device ?? "defaults-tool@\(ProcessInfo.processInfo.hostName)"
	}

	/**
	Opens the remote the options name (`forWriting`: see
	``FleetRemote/init(_:device:forWriting:)``), once `key`, when there is one,
	is a name the library accepts: a refused key opens nothing.
	*/
	func open(usage: String, key: String? = nil, forWriting: Bool = false) throws -> FleetRemote {
		if let key {
			try FleetPublication.validate(key: key)
		}

		return try FleetRemote(location(usage: usage), device: signature, forWriting: forWriting)
	}
}
