#if Postgres
import Defaults
import Foundation

// `scripts/postgres run swift run -c release DefaultsPostgresBenchmarks`: the PostgreSQL remote store next to the
// shared-folder store, measured in the same run (a target of its own, so the main benchmark builds no postgres-nio).
//
// Modes (the parent re-executes itself, because Foundation reads XDG_CONFIG_HOME only at launch):
//   (none)                       creates a temporary preferences folder and runs `--measure` in it
//   --measure                    runs every measurement and prints the report
//   --observe STORE WHERE        a device in another process: syncs `latency`, prints "ready", then "change N MICROSECONDS"
//
// DEFAULTS_BENCHMARK_WRITES: writes timed per store (300 by default); DEFAULTS_PG_*: the server (scripts/postgres).

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case nil:
	try relaunch(["--measure"], configFolder: nil)
case "--measure":
	try await measure()
case "--observe":
	try await observe(store: try StoreKind(arguments[1], location: arguments[2], device: "observer"))
default:
	FileHandle.standardError.write(Data("usage: DefaultsPostgresBenchmarks [--measure | --observe STORE WHERE]\n".utf8))
	exit(2)
}
#else
import Foundation

FileHandle.standardError.write(Data("DefaultsPostgresBenchmarks needs the Postgres trait: build with `--traits Postgres`\n".utf8))
exit(2)
#endif
