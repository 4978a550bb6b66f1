#if Postgres
import Defaults
import DefaultsPostgres
import Foundation
import PostgresNIO

// A child process for the PostgreSQL store's tests and benchmark: one process
// per device, syncing through the server named by DEFAULTS_PG_HOST, _PORT,
// _USER, _PASSWORD and _DATABASE (DEFAULTS_PG_OPERATION_TIMEOUT_MS: the store's
// operation timeout, 3000 by default; DEFAULTS_PG_TABLE: its table, defaults_sync by default). Each line is written straight to the descriptor.
//
//   observe NAMESPACE SUITE KEY SECONDS      prints "ready", then "change OLD NEW MICROSECONDS" per change
//                                            (MICROSECONDS: wall clock when the observer ran)
//   write NAMESPACE SUITE KEY VALUE SECONDS  writes VALUE, prints "written", keeps syncing for SECONDS,
//                                            then prints "local VALUE" (what the key reads here)
//   write-each NAMESPACE SUITE KEY COUNT GAP_MS  writes 1…COUNT, GAP_MS apart, printing "wrote I MICROSECONDS"

func say(_ line: String) {
	FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func microseconds() -> Int64 {
	Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
}

func environment(_ name: String) -> String {
	guard let value = ProcessInfo.processInfo.environment[name] else {
		FileHandle.standardError.write(Data("DefaultsPostgresTestHelper: \(name) is not set\n".utf8))
		exit(2)
	}

	return value
}

func syncedKey(_ arguments: [String]) throws -> Defaults.Key<Int> {
	let configuration = PostgresClient.Configuration(
		host: environment("DEFAULTS_PG_HOST"),
		port: Int(environment("DEFAULTS_PG_PORT"))!,
		username: environment("DEFAULTS_PG_USER"),
		password: environment("DEFAULTS_PG_PASSWORD"),
		database: environment("DEFAULTS_PG_DATABASE"),
		tls: .disable
	)
	var options = Defaults.PostgresRemoteStore.Options()
	options.operationTimeout = .milliseconds(Int(ProcessInfo.processInfo.environment["DEFAULTS_PG_OPERATION_TIMEOUT_MS"] ?? "") ?? 3_000)
	options.reconnectDelay = .milliseconds(50)
	options.maximumReconnectDelay = .seconds(1)
	options.table = ProcessInfo.processInfo.environment["DEFAULTS_PG_TABLE"] ?? options.table
	Defaults.iCloud.remote = try Defaults.PostgresRemoteStore(configuration: configuration, namespace: arguments[1], options: options)
	guard let suite = UserDefaults(suiteName: arguments[2]) else {
		exit(2)
	}

	return Defaults.Key<Int>(arguments[3], default: 0, suite: suite, iCloud: true)
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "observe":
	let key = try syncedKey(arguments)
	let observation = Defaults.observe(key, options: []) { change in
		say("change \(change.oldValue) \(change.newValue) \(microseconds())")
	}
	await Defaults.iCloud.waitForSyncCompletion()
	say("ready")
	try await Task.sleep(for: .seconds(Double(arguments[4])!))
	observation.invalidate()

case "write":
	let key = try syncedKey(arguments)
	Defaults[key] = Int(arguments[4])!
	await Defaults.iCloud.waitForSyncCompletion()
	say("written")
	try await Task.sleep(for: .seconds(Double(arguments[5])!))
	await Defaults.iCloud.waitForSyncCompletion()
	say("local \(Defaults[key])")

case "write-each":
	let key = try syncedKey(arguments)
	await Defaults.iCloud.waitForSyncCompletion()
	for value in 1...Int(arguments[4])! {
		say("wrote \(value) \(microseconds())")
		Defaults[key] = value
		try await Task.sleep(for: .milliseconds(Int(arguments[5])!))
	}
	await Defaults.iCloud.waitForSyncCompletion()

default:
	FileHandle.standardError.write(Data("usage: DefaultsPostgresTestHelper observe | write | write-each …\n".utf8))
	exit(2)
}
#else
import Foundation

FileHandle.standardError.write(Data("DefaultsPostgresTestHelper needs the Postgres trait: build with `--traits Postgres`\n".utf8))
exit(2)
#endif
