import ArgumentParser

/**
`defaults fleet`: the settings a fleet of processes syncs through a remote
store (a shared folder, a PostgreSQL namespace), read and changed from the
command line. A Linux addition: macOS's `defaults` has no such verbs, and the
other commands keep its behaviour for local domains.
*/
struct FleetCommand: ParsableCommand {
	static let usage = "defaults fleet read|write|delete|watch \(FleetRemoteOptions.usage) ..."

	static let configuration = CommandConfiguration(
		commandName: "fleet",
		abstract: "Read, write, delete and watch the settings a fleet of processes syncs through a remote (Linux only).",
		usage: usage,
		discussion: """
			The remote is the one the fleet's processes set as Defaults.iCloud.remote: --folder <path> \
			for a shared folder (SharedFolderRemoteStore), or --postgres with --namespace <name> (and \
			--table, --schema when not the defaults) for PostgreSQL (PostgresRemoteStore). PostgreSQL's \
			connection comes from the standard variables PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE \
			and PGSSLMODE, or from --postgres-url postgres://user@host:port/database (keep the password in \
			PGPASSWORD, not on the command line, where ps and shell histories show it). Options go before the key.
			A write is stamped as a device's explicit write, after every change the remote holds, so it \
			wins as a write from a process would, and every process applies it as it applies any synced \
			value. Changes are signed defaults-tool@<host name> unless --device says otherwise.
			Examples:
			  defaults fleet read --folder ~/Sync/preferences
			  PGHOST=db.internal PGUSER=ops PGDATABASE=settings defaults fleet read --postgres --namespace billing maintenanceMode
			  defaults fleet write --postgres --namespace billing maintenanceMode -bool yes
			  defaults fleet delete --postgres --namespace billing maintenanceMode
			  defaults fleet watch --postgres --namespace billing
			""",
		subcommands: [FleetReadCommand.self, FleetWriteCommand.self, FleetDeleteCommand.self, FleetWatchCommand.self]
	)
}
