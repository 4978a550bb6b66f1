import Defaults
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Commands of the migration tests: the same migrations, run by several processes.
//
//   migrate SUITE LOG PAUSE_MS [GATE]   runs the two migrations below on SUITE; each appends "ran VERSION PID" to LOG,
//                                prints "migrating VERSION", then pauses PAUSE_MS and, given GATE, waits until the file GATE
//                                exists (a minute at most) before it changes anything; prints "result PREVIOUS VERSION APPLIED…"
//                                then "read name=… count=…", or "error …" and exits 1
//
// Version 1 renames "oldName" to "name"; version 2 stores "count" (an Int) as a Double, doubled.

func runMigrationCommand(_ arguments: [String]) {
	let defaults = suite(arguments[1])
	let log = arguments[2]
	let pause = UInt32(arguments[3])!
	let gate = arguments.count > 4 ? arguments[4] : nil

	@Sendable func ran(_ version: Int) {
		let descriptor = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
		_ = "ran \(version) \(getpid())\n".withCString { write(descriptor, $0, strlen($0)) }
		close(descriptor)
		say("migrating \(version)")
		usleep(pause * 1000)
		// The test writes meanwhile, then opens the gate: the write lands while the migration runs, whatever the timing.
		if let gate {
			for _ in 0..<6000 where access(gate, F_OK) != 0 {
				usleep(10000)
			}
		}
	}

	let migrations = [
		Defaults.Migration(version: 1) { settings in
			ran(1)
			settings.rename("oldName", to: "name")
		},
		Defaults.Migration(version: 2) { settings in
			ran(2)
			if let count = try settings.value(Int.self, forKey: "count") {
				try settings.set(Double(count) * 2, forKey: "count")
			}
		},
	]

	do {
		let result = try Defaults.migrate(migrations, suite: defaults)
		say("result \(result.previousVersion.map(String.init) ?? "none") \(result.version) \(result.applied.map(String.init).joined(separator: " "))")
		let name = Defaults.Key<String>("name", default: "-", suite: defaults)
		let count = Defaults.Key<Double>("count", default: -1, suite: defaults)
		say("read name=\(defaults[name]) count=\(defaults[count])")
	} catch {
		say("error \(error)")
		exit(1)
	}
}
