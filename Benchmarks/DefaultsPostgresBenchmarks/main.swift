#if Postgres
import Defaults
import Foundation

// `scripts/postgres run swift run -c release DefaultsPostgresBenchmarks`: the PostgreSQL remote store next to the
// shared-folder store, measured in the same run (a target of its own, so the main benchmark builds no postgres-nio).
//
// Modes (the parent re-executes itself, because Foundation reads XDG_CONFIG_HOME only at launch):
//   (none)                       creates a temporary preferences folder and runs `--measure` in it
//   connections                  the same, measuring only the fleets' connections
//   --measure [connections]      runs every measurement (or only the connections section) and prints the report
//   --observe STORE WHERE        a device in another process: syncs `latency`, prints "ready", then "change N MICROSECONDS"
//   --member NAMESPACE NAME SHARING  a process of a fleet (SHARING: none or default): syncs `shared`, writes NAME once
//                                ready; prints "ready", "wrote MICROSECONDS", then "saw VALUE MICROSECONDS" per change
//
// DEFAULTS_BENCHMARK_WRITES: writes timed per store (300 by default); DEFAULTS_BENCHMARK_FLEET: the fleets' sizes
// ("10,50,150"); DEFAULTS_PG_*: the server (scripts/postgres; DEFAULTS_PG_PORT=$DEFAULTS_PG_LIMITED_PORT for its small one).

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case nil:
	try relaunch(["--measure"], configFolder: nil)
case "connections":
	try relaunch(["--measure", "connections"], configFolder: nil)
case "--measure":
	try await measure(onlyConnections: arguments.dropFirst().first == "connections")
case "--observe":
	try await observe(store: try StoreKind(arguments[1], location: arguments[2], device: "observer"))
case "--member":
	try await fleetMember(namespace: arguments[1], name: arguments[2], sharing: arguments[3])
default:
	FileHandle.standardError.write(Data("usage: DefaultsPostgresBenchmarks [connections | --measure [connections] | --observe STORE WHERE | --member NAMESPACE NAME SHARING]\n".utf8))
	exit(2)
}
#else
import Foundation

FileHandle.standardError.write(Data("DefaultsPostgresBenchmarks needs the Postgres trait: build with `--traits Postgres`\n".utf8))
exit(2)
#endif
