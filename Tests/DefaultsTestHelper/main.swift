import Defaults
import DefaultsTestSupport
import Foundation
import Synchronization

// A child process for the persistence tests. Each command prints one line per
// event and flushes standard output right away, so the parent sees exactly
// what was acknowledged before it killed the process.
//
//   dump SUITE                         the suite as Foundation reads it here: a base64 binary plist
//   write-keys SUITE PREFIX START COUNT  writes PREFIX<i> = i, flushes each, prints "ack i"
//   raw-then-flush SUITE KEY OTHER RAW SEEN…  writes KEY = the last SEEN through the library when there are several, raw-sets
//                                      KEY = RAW unsynchronized, prints "raw written"; once each SEEN value of another process's
//                                      writes is seen ("seen V"), writes OTHER and flushes; prints "diagnostic KIND unordered", "value V"
//   write-blob SUITE KEY MEGABYTES     writes KEY = MEGABYTES of data, flushes
//   write SUITE KEY INT [MODE]         writes KEY; MODE: return | exit | synchronize | flush (default flush)
//   observe SUITE KEY SECONDS          prints "ready", then "change OLD NEW" per change, for SECONDS
//   observe-managed SUITE KEY SECONDS  a String key (default "app"): prints "ready", then per change "key NEW forced|writable ORIGIN"
//                                      (key observer), "suite KEY" (whole-suite observer) and "update KEY" (Defaults.updates(suite:))
//   read-loop SUITE SECONDS            re-reads the suite file until SECONDS pass; prints "unreadable" on a torn file
//   flush-cost SUITE KEYS ROUNDS       fills the suite with KEYS keys, then times ROUNDS one-key write + flush cycles
//   burst SUITE WRITES                 WRITES writes as fast as possible, then one flush (run under strace to count file writes)
//   read-arguments                     prints "NAME=VALUE" for every LaunchArgumentFixture and HandTypedArgument key
//   argument-rule SUITE KEY            with -KEY given as a launch argument: writes, observes, resets; prints what it reads
//   sync-write FOLDER DEVICE SUITE KEY INT     syncs KEY through a shared folder as DEVICE, writes INT, waits until published
//   sync-observe FOLDER DEVICE SUITE KEY SECONDS  syncs KEY as DEVICE; prints "ready", then "change OLD NEW" per change
//   sync-write-killed FOLDER DEVICE SUITE KEY INT  as sync-write, with a flush window of a minute; once published, SIGKILLs itself
//   sync-read FOLDER DEVICE SUITE KEY           syncs KEY as DEVICE until in step, prints "value INT"
//   fuzz-archives / fuzz-values / archive-unnameable  see FuzzCommands.swift
//   write-block, write-signal-threads, write-exit-later, write-flush-loop, fork-pending  see ProcessCommands.swift
//   migrate                            see MigrationCommands.swift
//   write-data-when, raw-first, raw-then-write, flush-then-raw  see MergeCommands.swift
//   isolated-writes                    see IsolationCommands.swift
//   delete-file SUITE                  deletes the suite's file, as `rm` does
//   corrupt-and-flush SUITE ROUNDS     per round: under the suite's lock, if the file is readable, replaces it with unique
//                                      garbage and prints "garbage TEXT"; then writes a key and flushes (which sets the garbage aside)
//   rewrite-in-place SUITE MS          for MS milliseconds, rewrites the suite's file in place as Foundation does (unlocked,
//                                      truncated, then written in two parts 2 ms apart); prints "rewrites N"
//   set-aside SUITE ROUNDS             per round, under the suite's lock: writes unique garbage to the file, moves it aside with a
//                                      millisecond timestamp as unreadable files are, prints "garbage TEXT"; no fsync, so rounds are fast
//   write-from FOLDER SUITE KEY INT    in working directory FOLDER: writes KEY, flushes; prints "flushed" or "error REASON"
//   write-signal SUITE KEY INT SIGNAL DELAY_MS  writes KEY (default write mode), prints "written", sends itself SIGNAL (TERM, INT, HUP) after DELAY_MS, prints "alive" if still running 10 s later
//   own-handler SUITE KEY INT WHEN     installs a SIGTERM handler BEFORE or AFTER writing KEY, prints "ready"; on SIGTERM prints "handled" and exits 3
//   ignore-term SUITE KEY INT          ignores SIGTERM, writes KEY, sends itself SIGTERM; prints "survived" and exits
//   hold-lock SUITE                    takes the suite's inter-process lock, prints "locked", holds it until killed
//   reentrant-diagnostics SUITE KEY INT  a diagnostic handler that writes a key and flushes; writes KEY, flushes, prints "done"
//   observer-writes-at-exit SUITE      an observer that writes a key when another process's change is first seen by the exit flush
//   secret-read SUITE KEY              reads the secret key KEY (String?) as an app does: prints each diagnostic as "diagnostic KIND
//                                      MESSAGE", then "value TEXT" or "none", then "elapsed MS"
//   secret-write SUITE KEY TEXT        writes the secret key KEY with writeSecret (TEXT "-": removes it); prints "written" or
//                                      "error CASE DESCRIPTION" (CASE: unavailable, locked, timedOut, readOnly, failed); after "written",
//                                      "at NS": the monotonic clock once written, for latencies to another process's observer
//   secret-lookup SUITE KEY TIMEOUT_MS  reads KEY from the Secret Service; prints "value TEXT", "none" or "error CASE DESCRIPTION", then "elapsed MS"

/// Writes one line straight to the descriptor: nothing is left in a buffer when the process is killed.
func say(_ line: String) {
	FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The case of a secret error, for tests to match without its wording.
func secretErrorCase(_ error: Defaults.SecretError) -> String {
	switch error {
	case .unavailable: "unavailable"
	case .locked: "locked"
	case .timedOut: "timedOut"
	case .readOnly: "readOnly"
	case .failed: "failed"
	}
}

func suite(_ name: String) -> UserDefaults {
	guard let suite = UserDefaults(suiteName: name) else {
		FileHandle.standardError.write(Data("no suite \(name)\n".utf8))
		exit(2)
	}

	return suite
}

/// The case of `origin`, without its file.
func originName(_ origin: Defaults.ValueOrigin) -> String {
	switch origin {
	case .forced: "forced"
	case .launchArgument: "launchArgument"
	case .stored: "stored"
	case .systemWide: "systemWide"
	case .globalDomain: "globalDomain"
	case .registeredDefault: "registeredDefault"
	}
}

/// The folder the tests point this process's preferences to.
func preferencesFolder() -> URL {
	URL(fileURLWithPath: ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"]!, isDirectory: true)
}

/// Runs `body` holding the suite's inter-process lock, as the library and the `defaults` tool do around every edit.
func withSuiteLock<T>(_ name: String, _ body: () throws -> T) throws -> T {
	let descriptor = open(preferencesFolder().appendingPathComponent(".\(name).plist.lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
	guard descriptor >= 0 else {
		throw POSIXError(.EACCES)
	}

	defer { close(descriptor) }
	while flock(descriptor, LOCK_EX) != 0, errno == EINTR {}
	defer { flock(descriptor, LOCK_UN) }
	return try body()
}

/// The file of suite `name` in the test folder.
func suiteFile(_ name: String) -> URL {
	URL(fileURLWithPath: ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"]!).appendingPathComponent("\(name).plist")
}

/// Takes the suite's inter-process lock as any writer does; returns the descriptor holding it.
func lockSuite(_ name: String) -> Int32 {
	let lock = suiteFile(name).deletingLastPathComponent().appendingPathComponent(".\(name).plist.lock")
	let descriptor = open(lock.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
	guard descriptor >= 0, flock(descriptor, LOCK_EX) == 0 else {
		FileHandle.standardError.write(Data("cannot lock \(lock.path)\n".utf8))
		exit(2)
	}

	return descriptor
}

/// Edits the suite's file as another program would: under the lock, read, change, replace.
func editAsAnotherProcess(_ name: String, _ change: (inout [String: Any]) -> Void) throws {
	let descriptor = lockSuite(name)
	defer { close(descriptor) }
	let file = suiteFile(name)
	var contents = FileManager.default.contents(atPath: file.path)
		.flatMap { try? PropertyListSerialization.propertyList(from: $0, format: nil) as? [String: Any] } ?? [:]
	change(&contents)
	let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(name).edit.tmp")
	try PropertyListSerialization.data(fromPropertyList: contents, format: .binary, options: 0).write(to: temporary)
	rename(temporary.path, file.path)
}

func signalNumber(_ name: String) -> Int32 {
	switch name {
	case "TERM": SIGTERM
	case "INT": SIGINT
	case "HUP": SIGHUP
	default: Int32(name)!
	}
}

/// The signal the application's own handler received (0: none yet).
let receivedSignal = Atomic<Int32>(0)

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else {
	FileHandle.standardError.write(Data("usage: DefaultsTestHelper COMMAND …\n".utf8))
	exit(2)
}

switch command {
case "fuzz-archives", "fuzz-values", "crafted-archives", "archive-unnameable":
	runFuzzCommand(arguments)

case "isolated-writes":
	runIsolationCommand(arguments)

case "migrate":
	runMigrationCommand(arguments)

case "write-block", "write-signal-threads", "write-exit-later", "write-flush-loop", "fork-pending", "fork-worker":
	runProcessCommand(arguments)

case "write-data-when", "raw-first", "raw-then-write", "flush-then-raw":
	runMergeCommand(arguments)

case "read-arguments":
	for fixture in LaunchArgumentFixture.all + HandTypedArgument.all.map(\.fixture) {
		say("\(fixture.name)=\(fixture.read())")
	}

case "argument-rule":
	let defaults = suite(arguments[1])
	let key = Defaults.Key<Int>(arguments[2], default: 0, suite: defaults)
	say("read \(defaults[key]) hasKey \(defaults.hasKey(key))")
	let observation = Defaults.observe(key, options: []) { change in
		say("observed \(change.oldValue) -> \(change.newValue)")
	}
	defaults[key] = 7
	try Defaults.flush(suite: defaults)
	say("after write \(defaults[key]) stored \(defaults.persistentDomain(forName: arguments[1])?[key.name].flatMap { $0 as? Int }.map(String.init) ?? "nothing")")
	Defaults.reset(key)
	try Defaults.flush(suite: defaults)
	say("after reset \(defaults[key]) stored \(defaults.persistentDomain(forName: arguments[1])?[key.name].flatMap { $0 as? Int }.map(String.init) ?? "nothing") hasKey \(defaults.hasKey(key))")
	observation.invalidate()

case "sync-write", "sync-write-killed":
	let killed = command == "sync-write-killed"
	if killed {
		// The suite's own flush would come a minute later: only what sync work stored before saving its timestamps is on disk.
		Defaults.writeMode = .coalesced(milliseconds: 60_000)
	}

	Defaults.iCloud.remote = try Defaults.SharedFolderRemoteStore(folder: URL(fileURLWithPath: arguments[1]), device: arguments[2])
	let key = Defaults.Key<Int>(arguments[4], default: 0, suite: suite(arguments[3]), iCloud: true)
	await Defaults.iCloud.waitForSyncCompletion()
	Defaults[key] = Int(arguments[5])!
	await Defaults.iCloud.waitForSyncCompletion()
	say("published")
	if killed {
		kill(getpid(), SIGKILL)
	}

case "sync-burst":
	// sync-burst FOLDER DEVICE SUITE COUNT [MODE]: COUNT synced keys k0…, each written once (i + 1), printing "ack i"; every
	// tenth write flushes on a thread of its own (flush threads race the synchroniser's saves). MODE "clean" waits for sync,
	// flushes and prints "done"; else the parent kills the process part way.
	Defaults.iCloud.remote = try Defaults.SharedFolderRemoteStore(folder: URL(fileURLWithPath: arguments[1]), device: arguments[2])
	let defaults = suite(arguments[3])
	let count = Int(arguments[4])!
	let keys = (0..<count).map { Defaults.Key<Int>("k\($0)", default: 0, suite: defaults, iCloud: true) }
	await Defaults.iCloud.waitForSyncCompletion()
	for (index, key) in keys.enumerated() {
		Defaults[key] = index + 1
		say("ack \(index)")
		if index % 10 == 9 {
			let name = arguments[3]
			Thread.detachNewThread { try? Defaults.flush(suite: suite(name)) }
		}
		if index % 7 == 0 {
			await Task.yield()
		}
	}

	if arguments.count > 5, arguments[5].hasPrefix("clean") {
		if arguments[5] == "clean-sleep" {
			try await Task.sleep(for: .seconds(1))
		}
		await Defaults.iCloud.waitForSyncCompletion()
		try Defaults.flush(suite: defaults)
		await Defaults.iCloud.waitForSyncCompletion()
		say("done")
	}

case "sync-read":
	Defaults.iCloud.remote = try Defaults.SharedFolderRemoteStore(folder: URL(fileURLWithPath: arguments[1]), device: arguments[2])
	let key = Defaults.Key<Int>(arguments[4], default: 0, suite: suite(arguments[3]), iCloud: true)
	await Defaults.iCloud.waitForSyncCompletion()
	say("value \(Defaults[key])")

case "sync-observe":
	Defaults.iCloud.remote = try Defaults.SharedFolderRemoteStore(folder: URL(fileURLWithPath: arguments[1]), device: arguments[2])
	let key = Defaults.Key<Int>(arguments[4], default: 0, suite: suite(arguments[3]), iCloud: true)
	let observation = Defaults.observe(key, options: []) { change in
		say("change \(change.oldValue) \(change.newValue)")
	}
	await Defaults.iCloud.waitForSyncCompletion()
	say("ready")
	try await Task.sleep(for: .seconds(Double(arguments[5])!))
	observation.invalidate()

case "dump":
	let name = arguments[1]
	let domain = suite(name).persistentDomain(forName: name) ?? [:]
	let data = try PropertyListSerialization.data(fromPropertyList: domain, format: .binary, options: 0)
	say(data.base64EncodedString())

case "write-keys":
	let defaults = suite(arguments[1])
	let prefix = arguments[2]
	let start = Int(arguments[3])!
	let count = Int(arguments[4])!
	for index in start..<(start + count) {
		defaults[Defaults.Key<Int>("\(prefix)\(index)", default: -1, suite: defaults)] = index
		try Defaults.flush(suite: defaults)
		say("ack \(index)")
	}

case "raw-then-flush":
	// A raw write left unsynchronized, then (once another process's writes of the key are seen) a flush of another key.
	let defaults = suite(arguments[1])
	let key = Defaults.Key<Int>(arguments[2], default: 0, suite: defaults)
	let other = Defaults.Key<Int>(arguments[3], default: 0, suite: defaults)
	let seen = arguments[5...].map { Int($0)! }
	defaults[other] = 1
	if seen.count > 1, let last = seen.last {
		// The library's own value, which the other process comes back to (A-B-A).
		defaults[key] = last
	}
	try Defaults.flush(suite: defaults)
	defaults.set(Int(arguments[4])!, forKey: key.name)
	say("raw written")
	for value in seen {
		let deadline = Date() + 60
		while defaults[key] != value, Date() < deadline {
			usleep(2_000)
		}
		say("seen \(defaults[key])")
	}
	Defaults.setDiagnosticHandler { diagnostic in
		say("diagnostic \(diagnostic.kind.rawValue) \(diagnostic.message.contains("unordered") ? "unordered" : diagnostic.message)")
	}
	defaults[other] = 3
	try Defaults.flush(suite: defaults)
	say("value \(defaults[key])")

case "write-blob":
	let defaults = suite(arguments[1])
	defaults[Defaults.Key<Data>(arguments[2], default: Data(), suite: defaults)] = Data(repeating: 0x5A, count: Int(arguments[3])! * 1024 * 1024)
	try Defaults.flush(suite: defaults)

case "write":
	let defaults = suite(arguments[1])
	defaults[Defaults.Key<Int>(arguments[2], default: -1, suite: defaults)] = Int(arguments[3])!
	switch arguments.count > 4 ? arguments[4] : "flush" {
	case "exit":
		exit(0)
	case "return":
		break
	case "synchronize":
		defaults.synchronize()
	default:
		try Defaults.flush(suite: defaults)
	}

case "observe":
	let defaults = suite(arguments[1])
	let key = Defaults.Key<Int>(arguments[2], default: -1, suite: defaults)
	// The main thread sleeps below, so the handler must run on the writing thread rather than the main actor.
	let observation = Defaults.observe(key, options: [], isolation: nil) { @Sendable change in
		say("change \(change.oldValue) \(change.newValue)")
	}
	say("ready")
	usleep(UInt32(Double(arguments[3])! * 1_000_000))
	observation.invalidate()

case "observe-managed":
	let defaults = suite(arguments[1])
	let key = Defaults.Key<String>(arguments[2], default: "app", suite: defaults)
	let observation = Defaults.observe(key, options: [], isolation: nil) { @Sendable change in
		say("key \(change.newValue) \(key.isForced ? "forced" : "writable") \(originName(key.origin))")
	}
	let suiteObservation = Defaults.observe(suite: defaults, isolation: nil) { @Sendable change in
		say("suite \(change.name)")
	}
	// Made before "ready": the stream subscribes when it is made, and a task may start iterating only after the first change.
	let suiteUpdates = Defaults.updates(suite: defaults)
	let updates = Task.detached {
		for await change in suiteUpdates {
			say("update \(change.name)")
		}
	}
	say("ready \(defaults[key]) \(originName(key.origin))")
	try await Task.sleep(for: .seconds(Double(arguments[3])!))
	observation.invalidate()
	suiteObservation.invalidate()
	updates.cancel()

case "read-loop":
	let name = arguments[1]
	let folder = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"]!
	let file = URL(fileURLWithPath: folder).appendingPathComponent("\(name).plist")
	let deadline = Date().addingTimeInterval(Double(arguments[2])!)
	var reads = 0
	while Date() < deadline {
		if let data = FileManager.default.contents(atPath: file.path) {
			reads += 1
			let plist = try? PropertyListSerialization.propertyList(from: data, format: nil)
			if !(plist is [String: Any]) {
				say("unreadable \(data.count)")
			}
		}
	}
	say("reads \(reads)")

case "flush-cost":
	let defaults = suite(arguments[1])
	let keyCount = Int(arguments[2])!
	let rounds = Int(arguments[3])!
	for index in 0..<keyCount {
		defaults[Defaults.Key<Int>("fill\(index)", default: 0, suite: defaults)] = index
	}
	try Defaults.flush(suite: defaults)
	let probe = Defaults.Key<Int>("probe", default: 0, suite: defaults)
	var durations: [Double] = []
	for round in 0..<rounds {
		let start = DispatchTime.now().uptimeNanoseconds
		defaults[probe] = round
		try Defaults.flush(suite: defaults)
		durations.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
	}
	durations.sort()
	let size = (try? FileManager.default.attributesOfItem(atPath: ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"]! + "/\(arguments[1]).plist")[.size]) ?? 0
	say("keys \(keyCount) median_us \(Int(durations[durations.count / 2])) p90_us \(Int(durations[durations.count * 9 / 10])) file_bytes \(size)")

case "burst":
	let defaults = suite(arguments[1])
	let writes = Int(arguments[2])!
	let keys = (0..<writes).map { Defaults.Key<Int>("burst\($0)", default: 0, suite: defaults) }
	let start = DispatchTime.now().uptimeNanoseconds
	for (index, key) in keys.enumerated() {
		defaults[key] = index
	}
	let written = DispatchTime.now().uptimeNanoseconds
	try Defaults.flush(suite: defaults)
	let flushed = DispatchTime.now().uptimeNanoseconds
	say("writes \(writes) write_loop_ms \((written - start) / 1_000_000) final_flush_ms \((flushed - written) / 1_000_000)")

case "delete-file":
	unlink(preferencesFolder().appendingPathComponent("\(arguments[1]).plist").path)

case "corrupt-and-flush":
	let name = arguments[1]
	let defaults = suite(name)
	let key = Defaults.Key<Int>("round\(getpid())", default: -1, suite: defaults)
	let file = preferencesFolder().appendingPathComponent("\(name).plist")
	for round in 0..<Int(arguments[2])! {
		let garbage = "garbage \(getpid()) \(round)"
		let wrote = try withSuiteLock(name) {
			// Garbage still waiting to be set aside is another writer's: replacing it would lose it here, not in the library.
			let current = FileManager.default.contents(atPath: file.path)
			guard current == nil || (try? PropertyListSerialization.propertyList(from: current!, format: nil)) is [String: Any] else {
				return false
			}

			try POSIXFileSystem().replaceAtomically(file, with: Data(garbage.utf8), newFileMode: 0o600)
			return true
		}
		if wrote {
			say(garbage)
		}

		defaults[key] = round
		try Defaults.flush(suite: defaults)
	}

case "set-aside":
	let name = arguments[1]
	let file = preferencesFolder().appendingPathComponent("\(name).plist")
	let formatter = DateFormatter()
	formatter.locale = Locale(identifier: "en_US_POSIX")
	formatter.dateFormat = "yyyyMMdd'T'HHmmss.SSS"
	for round in 0..<Int(arguments[2])! {
		let garbage = "garbage \(getpid()) \(round)"
		try withSuiteLock(name) {
			try Data(garbage.utf8).write(to: file)
			_ = try POSIXFileSystem().moveAside(file, suffix: "unreadable-\(formatter.string(from: Date()))")
		}
		say(garbage)
	}

case "rewrite-in-place":
	// As Foundation's own `UserDefaults` saves: in place, unlocked, truncating first; in two parts, so readers can catch it half-written.
	let file = preferencesFolder().appendingPathComponent("\(arguments[1]).plist")
	let contents = try PropertyListSerialization.data(fromPropertyList: ["inPlace": getpid()], format: .binary, options: 0)
	let deadline = Date() + Double(arguments[2])! / 1000
	var rewrites = 0
	while Date() < deadline {
		let descriptor = open(file.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
		contents.withUnsafeBytes { bytes in
			_ = write(descriptor, bytes.baseAddress!, contents.count / 2)
			usleep(2000)
			_ = write(descriptor, bytes.baseAddress! + contents.count / 2, contents.count - contents.count / 2)
		}
		close(descriptor)
		rewrites += 1
		usleep(3000)
	}
	say("rewrites \(rewrites)")

case "write-from":
	guard chdir(arguments[1]) == 0 else {
		say("error cannot enter \(arguments[1])")
		exit(1)
	}

	let defaults = suite(arguments[2])
	defaults[Defaults.Key<Int>(arguments[3], default: -1, suite: defaults)] = Int(arguments[4])!
	do {
		try Defaults.flush(suite: defaults)
		say("flushed")
	} catch {
		say("error \(error)")
		exit(1)
	}

case "write-signal":
	let defaults = suite(arguments[1])
	let signal = signalNumber(arguments[4])
	let delay = UInt32(arguments[5])!
	defaults[Defaults.Key<Int>(arguments[2], default: -1, suite: defaults)] = Int(arguments[3])!
	if delay > 0 {
		usleep(delay * 1000)
	}
	kill(getpid(), signal)
	say("signalled")
	sleep(10)
	say("alive")

case "own-handler":
	let defaults = suite(arguments[1])
	let installHandler = {
		_ = signal(SIGTERM) { received in
			receivedSignal.store(received, ordering: .relaxed)
		}
	}
	if arguments[4] == "BEFORE" {
		installHandler()
	}
	defaults[Defaults.Key<Int>(arguments[2], default: -1, suite: defaults)] = Int(arguments[3])!
	if arguments[4] == "AFTER" {
		installHandler()
	}
	say("ready")
	for _ in 0..<10_000 where receivedSignal.load(ordering: .relaxed) == 0 {
		usleep(1000)
	}
	say(receivedSignal.load(ordering: .relaxed) == SIGTERM ? "handled" : "timed out")
	exit(3)

case "ignore-term":
	_ = signal(SIGTERM, SIG_IGN)
	let defaults = suite(arguments[1])
	defaults[Defaults.Key<Int>(arguments[2], default: -1, suite: defaults)] = Int(arguments[3])!
	kill(getpid(), SIGTERM)
	usleep(200_000)
	say("survived")

case "hold-lock":
	let descriptor = lockSuite(arguments[1])
	say("locked")
	sleep(60)
	close(descriptor)

case "reentrant-diagnostics":
	let defaults = suite(arguments[1])
	let fromHandler = Defaults.Key<Int>("fromHandler", default: 0, suite: defaults)
	Defaults.setDiagnosticHandler { diagnostic in
		say("diagnostic \(diagnostic.kind)")
		Defaults[fromHandler] += 1
		try? Defaults.flush(suite: fromHandler.suite)
	}
	defaults[Defaults.Key<Int>(arguments[2], default: -1, suite: defaults)] = Int(arguments[3])!
	try Defaults.flush(suite: defaults)
	say("done")

case "observer-writes-at-exit":
	// The watcher thread is kept busy by a slow observer, so the exit flush is the first to see the second edit.
	let name = arguments[1]
	let defaults = suite(name)
	let slow = Defaults.Key<Int>("slow", default: 0, suite: defaults)
	let watched = Defaults.Key<Int>("watched", default: 0, suite: defaults)
	let reaction = Defaults.Key<Int>("reaction", default: 0, suite: defaults)
	let mine = Defaults.Key<Int>("mine", default: 0, suite: defaults)
	let watcherIsBusy = DispatchSemaphore(value: 0)
	// Not on the main actor (top-level code's), whose thread this command blocks: the handlers run on the watcher thread.
	let slowObservation = Defaults.observe(slow, options: [], isolation: nil) { @Sendable _ in
		watcherIsBusy.signal()
		sleep(5)
	}
	let reactingObservation = Defaults.observe(watched, options: [], isolation: nil) { @Sendable change in
		Defaults[reaction] = change.newValue
	}
	defaults[mine] = 1
	try Defaults.flush(suite: defaults)
	try editAsAnotherProcess(name) { $0["slow"] = 1 }
	guard watcherIsBusy.wait(timeout: .now() + 5) == .success else {
		say("the watcher never delivered")
		exit(1)
	}
	defaults[mine] = 2
	try editAsAnotherProcess(name) { $0["watched"] = 5 }
	withExtendedLifetime((slowObservation, reactingObservation)) {
		say("exiting")
		exit(0)
	}

#if os(Linux)
case "secret-lookup":
	let started = ContinuousClock.now
	let client = SecretServiceClient(applicationName: "DefaultsTestHelper", timeout: .milliseconds(Int(arguments[3])!))
	do {
		say(try client.lookupString(suite: arguments[1], key: arguments[2]).map { "value \($0)" } ?? "none")
	} catch {
		say("error \(secretErrorCase(error.secretError)) \(error)")
	}
	say("elapsed \(((ContinuousClock.now - started) / .milliseconds(1)).rounded())")
#endif

case "secret-read":
	let key = Defaults.Key<String?>(arguments[2], suite: suite(arguments[1]), secret: true)
	Defaults.setDiagnosticHandler { say("diagnostic \($0.kind.rawValue) \($0.message)") }
	let started = ContinuousClock.now
	say(Defaults[key].map { "value \($0)" } ?? "none")
	say("elapsed \(((ContinuousClock.now - started) / .milliseconds(1)).rounded())")

case "secret-write":
	let key = Defaults.Key<String?>(arguments[2], suite: suite(arguments[1]), secret: true)
	Defaults.setDiagnosticHandler { say("diagnostic \($0.kind.rawValue) \($0.message)") }
	do {
		try key.writeSecret(arguments[3] == "-" ? nil : arguments[3])
		say("written")
		#if os(Linux)
		say("at \(SecretServiceTestDaemon.monotonicNanoseconds())")
		#endif
	} catch {
		say("error \(secretErrorCase(error)) \(error)")
	}

default:
	FileHandle.standardError.write(Data("unknown command \(command)\n".utf8))
	exit(2)
}
