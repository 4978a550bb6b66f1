#if Postgres
import Defaults
import DefaultsPostgres
import Foundation
import PostgresNIO

// A child process for the PostgreSQL store's tests and benchmark: one process
// per device, syncing through the server named by DEFAULTS_PG_HOST, _PORT,
// _USER, _PASSWORD and _DATABASE (DEFAULTS_PG_OPERATION_TIMEOUT_MS: the store's
// operation timeout, 3000 by default; DEFAULTS_PG_TABLE: its table, defaults_sync by default;
// DEFAULTS_PG_APPLICATION_NAME: the connections' application_name, so a test can count them in pg_stat_activity;
// DEFAULTS_PG_SHARING: the store's connection sharing, `none` or `folder:PATH`, else the option's default).
// Each line is written straight to the descriptor.
//
//   observe NAMESPACE SUITE KEY SECONDS      prints "ready", then "change OLD NEW MICROSECONDS" per change
//                                            (MICROSECONDS: wall clock when the observer ran)
//   write NAMESPACE SUITE KEY VALUE SECONDS  writes VALUE, prints "written", keeps syncing for SECONDS,
//                                            then prints "local VALUE" (what the key reads here)
//   write-each NAMESPACE SUITE KEY COUNT GAP_MS  writes 1…COUNT, GAP_MS apart, printing "wrote I MICROSECONDS"
//   member NAMESPACE SUITE NAME SECONDS      a process of a fleet, device NAME: syncs the Int keys `shared` and NAME,
//                                            prints "ready" once its first sync completed, writes NAME = 1 and prints
//                                            "wrote 1", prints "saw V" whenever `shared` changes, and on each SIGUSR1
//                                            writes NAME again, one more, printing "wrote N"; exits after SECONDS.
//                                            With DEFAULTS_PG_MEMBER_BUSY_MS, it also writes `busy-NAME` (1, 2, …)
//                                            every that many milliseconds from "ready" on, as a busy service would

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

/// The store's connection sharing named by DEFAULTS_PG_SHARING.
func connectionSharing() -> Defaults.PostgresRemoteStore.ConnectionSharing {
	switch ProcessInfo.processInfo.environment["DEFAULTS_PG_SHARING"] {
	case nil, "", "default":
		return Defaults.PostgresRemoteStore.Options().connectionSharing
	case "none":
		return .none
	case let value? where value.hasPrefix("folder:") && value.count > "folder:".count:
		return .through(folder: URL(fileURLWithPath: String(value.dropFirst("folder:".count))))
	case let value?:
		FileHandle.standardError.write(Data("DefaultsPostgresTestHelper: DEFAULTS_PG_SHARING is '\(value)': expected none, default or folder:PATH\n".utf8))
		exit(2)
	}
}

/// Makes the server named by the environment this process's remote, syncing `namespace` as `device` (the machine's ID when `nil`).
func connect(namespace: String, device: String? = nil) throws {
	var configuration = PostgresClient.Configuration(
		host: environment("DEFAULTS_PG_HOST"),
		port: Int(environment("DEFAULTS_PG_PORT"))!,
		username: environment("DEFAULTS_PG_USER"),
		password: environment("DEFAULTS_PG_PASSWORD"),
		database: environment("DEFAULTS_PG_DATABASE"),
		tls: .disable
	)
	if let applicationName = ProcessInfo.processInfo.environment["DEFAULTS_PG_APPLICATION_NAME"] {
		configuration.options.additionalStartupParameters = [("application_name", applicationName)]
	}

	var options = Defaults.PostgresRemoteStore.Options()
	options.operationTimeout = .milliseconds(Int(ProcessInfo.processInfo.environment["DEFAULTS_PG_OPERATION_TIMEOUT_MS"] ?? "") ?? 3_000)
	options.reconnectDelay = .milliseconds(50)
	options.maximumReconnectDelay = .seconds(1)
	options.table = ProcessInfo.processInfo.environment["DEFAULTS_PG_TABLE"] ?? options.table
	options.connectionSharing = connectionSharing()
	Defaults.iCloud.remote = try Defaults.PostgresRemoteStore(configuration: configuration, namespace: namespace, device: device, options: options)
}

func suite(named name: String) -> UserDefaults {
	guard let suite = UserDefaults(suiteName: name) else {
		exit(2)
	}

	return suite
}

func syncedKey(_ arguments: [String]) throws -> Defaults.Key<Int> {
	try connect(namespace: arguments[1])
	return Defaults.Key<Int>(arguments[3], default: 0, suite: suite(named: arguments[2]), iCloud: true)
}

/// A process of a fleet (`member NAMESPACE SUITE NAME SECONDS`): see the commands above.
func member(_ arguments: [String]) async throws {
	let name = arguments[3]
	try connect(namespace: arguments[1], device: name)
	let suite = suite(named: arguments[2])
	let shared = Defaults.Key<Int>("shared", default: 0, suite: suite, iCloud: true)
	let own = Defaults.Key<Int>(name, default: 0, suite: suite, iCloud: true)
	let observation = Defaults.observe(shared, options: []) { change in
		say("saw \(change.newValue)")
	}
	// A test asks for another write of a survivor with SIGUSR1 (installed before "ready", so never fatal).
	signal(SIGUSR1, SIG_IGN)
	let rewrite = DispatchSource.makeSignalSource(signal: SIGUSR1, queue: DispatchQueue(label: "member.rewrite"))
	rewrite.setEventHandler {
		let value = Defaults[own] + 1
		Defaults[own] = value
		say("wrote \(value)")
	}
	rewrite.resume()
	await Defaults.iCloud.waitForSyncCompletion()
	say("ready")
	Defaults[own] = 1
	say("wrote 1")
	let busyKey = Defaults.Key<Int>("busy-\(name)", default: 0, suite: suite, iCloud: true)
	let busy = ProcessInfo.processInfo.environment["DEFAULTS_PG_MEMBER_BUSY_MS"].flatMap(Int.init).map { gap in
		Task.detached { [busyKey] in
			let key = busyKey
			while (try? await Task.sleep(for: .milliseconds(gap))) != nil {
				Defaults[key] += 1
			}
		}
	}
	try await Task.sleep(for: .seconds(Double(arguments[4])!))
	busy?.cancel()
	rewrite.cancel()
	observation.invalidate()
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

case "member":
	try await member(arguments)

default:
	FileHandle.standardError.write(Data("usage: DefaultsPostgresTestHelper observe | write | write-each | member …\n".utf8))
	exit(2)
}
#else
import Foundation

FileHandle.standardError.write(Data("DefaultsPostgresTestHelper needs the Postgres trait: build with `--traits Postgres`\n".utf8))
exit(2)
#endif
