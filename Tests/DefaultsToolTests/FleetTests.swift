import Defaults
import DefaultsTestSupport
import Foundation
import Testing

/// `defaults fleet` against a shared folder, with processes of the library syncing through the same folder.
@Suite("defaults fleet (shared folder)")
struct FleetTests {
	/// A sandbox with a shared folder in it.
	private struct Fleet {
		let sandbox = ToolSandbox()
		var folder: String { sandbox.folder.appendingPathComponent("sync").path }
		let suite = "com.example.fleet-tests.\(UUID().uuidString)"

		init() throws {
			try FileManager.default.createDirectory(atPath: sandbox.folder.appendingPathComponent("sync").path, withIntermediateDirectories: true)
		}

		@discardableResult
		func succeed(_ verb: String, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
			try sandbox.succeed(["fleet", verb, "--folder", folder] + arguments, sourceLocation: sourceLocation)
		}

		func run(_ verb: String, _ arguments: String...) throws -> ChildProcess.Result {
			try sandbox.run(["fleet", verb, "--folder", folder] + arguments)
		}

		/// Runs the verb, requires status `status` and one line on standard error; returns the line.
		func fail(_ verb: String, _ arguments: String..., status: Int32, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
			let result = try sandbox.run(["fleet", verb, "--folder", folder] + arguments)
			#expect(result.status == status, "\(result.errorOutput)", sourceLocation: sourceLocation)
			#expect(result.output.isEmpty, sourceLocation: sourceLocation)
			#expect(result.errorOutput.hasPrefix("defaults: ") && result.errorOutput.filter { $0 == "\n" }.count == 1, "\(result.errorOutput)", sourceLocation: sourceLocation)
			return result.errorOutput
		}

		func start(_ verb: String, _ arguments: String...) throws -> ChildProcess {
			try ChildProcess("defaults", ["fleet", verb, "--folder", folder] + arguments, environment: sandbox.environment)
		}

		func helper(_ arguments: String...) throws -> ChildProcess {
			try ChildProcess("DefaultsTestHelper", arguments, environment: sandbox.environment)
		}
	}

	@Test("write then read: the value decoded, who wrote it and when, in text and JSON")
	func writeThenRead() throws {
		let fleet = try Fleet()
		let before = Date()
		try fleet.succeed("write", "--device", "ops", "greeting", "-string", "hello world")
		try fleet.succeed("write", "--device", "ops", "limits", "-dict", "requests", "-int", "100")
		try fleet.succeed("write", "--device", "ops", "tags", "-array", "a")
		try fleet.succeed("write", "--device", "ops", "tags", "-array-add", "b")

		let lines = try fleet.succeed("read").split(separator: "\n").map(String.init)
		#expect(lines.count == 3)
		#expect(lines[0].hasPrefix(#"greeting = "hello world"  ["#) && lines[0].hasSuffix(" by ops]"), "\(lines)")
		#expect(lines[1].hasPrefix("limits = {requests = 100;}  ["), "\(lines)")
		#expect(lines[2].hasPrefix("tags = (a, b)  ["), "\(lines)")

		let one = try fleet.succeed("read", "greeting")
		#expect(one.hasPrefix(#"greeting = "hello world"  ["#))

		let json = try #require(try fleet.sandbox.json(try fleet.succeed("read", "--json")) as? [String: [String: Any]])
		#expect(Set(json.keys) == ["greeting", "limits", "tags"])
		let greeting = try #require(json["greeting"])
		#expect(greeting["value"] as? String == "hello world")
		#expect(greeting["deleted"] as? Bool == false)
		#expect(greeting["device"] as? String == "ops")
		let time = try #require(greeting["time"] as? String)
		let written = try #require(ISO8601DateFormatter.withMilliseconds.date(from: time), "\(time)")
		#expect(written >= before.addingTimeInterval(-1) && written <= Date().addingTimeInterval(1))
		#expect((json["limits"]?["value"] as? [String: Int]) == ["requests": 100])

		let single = try #require(try fleet.sandbox.json(try fleet.succeed("read", "--json", "tags")) as? [String: Any])
		#expect(single["value"] as? [String] == ["a", "b"])
	}

	@Test("the default signature names the tool and the host")
	func defaultSignature() throws {
		let fleet = try Fleet()
		try fleet.succeed("write", "count", "-int", "3")
		#expect(try fleet.succeed("read", "count").hasSuffix(" by defaults-tool@\(ProcessInfo.processInfo.hostName)]\n"))
	}

	@Test("delete publishes a tombstone, shown as deleted")
	func deleteShowsDeleted() throws {
		let fleet = try Fleet()
		try fleet.succeed("write", "--device", "ops", "mode", "maintenance")
		try fleet.succeed("delete", "--device", "ops", "mode")
		#expect(try fleet.succeed("read").hasPrefix("mode (deleted)  ["))
		let json = try #require(try fleet.sandbox.json(try fleet.succeed("read", "--json", "mode")) as? [String: Any])
		#expect(json["deleted"] as? Bool == true)
		#expect(json["value"] == nil)
		// Deleting what is not there is refused.
		#expect(try fleet.fail("delete", "mode", status: 1).contains("key 'mode' does not exist"))
		#expect(try fleet.fail("read", "absent", status: 1).contains("key 'absent' does not exist"))
	}

	@Test("a write is stamped after every change the remote holds, even one ahead of this clock")
	func writeWinsOverStampAhead() async throws {
		let fleet = try Fleet()
		// Another device, its clock an hour ahead, wrote the key.
		let ahead = Int64((Date().timeIntervalSince1970 + 3600) * 1000)
		let laptop = try Defaults.SharedFolderRemoteStore(folder: URL(fileURLWithPath: fleet.folder), device: "laptop")
		let stamp = Defaults.SyncTimestamp(milliseconds: ahead, counter: 4, device: "laptop#1")
		try await laptop.publish(["theme": Defaults.RemoteEntry(value: Defaults.AnySerializable("light"), timestamp: stamp)])

		let result = try fleet.run("write", "theme", "dark")
		#expect(result.status == 0, "\(result.errorOutput)")
		#expect(result.errorOutput.contains("ahead of this machine's clock"))
		let entry = try #require(try await laptop.entries()["theme"])
		#expect(entry.value == Defaults.AnySerializable("dark"))
		#expect(entry.timestamp > stamp)
	}

	@Test("a running process that syncs through the folder applies a tool write")
	func processObservesToolWrite() throws {
		let fleet = try Fleet()
		let observer = try fleet.helper("sync-observe", fleet.folder, "web-1", fleet.suite, "volume", "60")
		defer { if !observer.hasExited { observer.kill() } }
		try #require(observer.waitForLine(timeout: 30) { $0 == "ready" } != nil, "\(observer.errorOutputText)")

		try fleet.succeed("write", "volume", "-int", "7")
		#expect(observer.waitForLine(timeout: 30) { $0 == "change 0 7" } != nil, "\(observer.receivedLines) \(observer.errorOutputText)")
		try fleet.succeed("delete", "volume")
		#expect(observer.waitForLine(timeout: 30) { $0 == "change 7 0" } != nil, "\(observer.receivedLines) \(observer.errorOutputText)")
	}

	@Test("fleet watch prints a process's write as it arrives, one line per change")
	func watchSeesProcessWrite() throws {
		let fleet = try Fleet()
		try fleet.succeed("write", "--device", "ops", "other", "-int", "1")
		let watcher = try fleet.start("watch")
		defer { if !watcher.hasExited { watcher.kill() } }
		try #require(watcher.waitForErrorOutput(containing: "Watching", timeout: 10), "\(watcher.errorOutputText)")

		let writer = try fleet.helper("sync-write", fleet.folder, "web-2", fleet.suite, "volume", "5")
		#expect(writer.waitUntilExit() == 0, "\(writer.errorOutputText)")
		let line = watcher.waitForLine(timeout: 30) { $0.contains(" volume: (absent) -> 5  [") }
		#expect(line?.contains(" by web-2#") == true, "\(watcher.receivedLines)")

		try fleet.succeed("delete", "--device", "ops", "other")
		#expect(watcher.waitForLine(timeout: 30) { $0.contains(" other: 1 -> (deleted)  [") && $0.hasSuffix(" by ops]") } != nil, "\(watcher.receivedLines)")
		#expect(watcher.stop(with: SIGINT) == 0)
		#expect(watcher.receivedLines.count == 2, "\(watcher.receivedLines)")
	}

	@Test("fleet watch with a key and --json reports only that key, as JSON")
	func watchOneKeyJSON() throws {
		let fleet = try Fleet()
		let watcher = try fleet.start("watch", "--json", "wanted")
		defer { if !watcher.hasExited { watcher.kill() } }
		try #require(watcher.waitForErrorOutput(containing: "Watching", timeout: 10), "\(watcher.errorOutputText)")
		try fleet.succeed("write", "ignored", "-int", "1")
		try fleet.succeed("write", "--device", "ops", "wanted", "-int", "2")
		let line = try #require(watcher.waitForLine(timeout: 30) { $0.contains(#""key":"wanted""#) })
		let event = try #require(try fleet.sandbox.json(line) as? [String: Any])
		#expect((event["new"] as? [String: Any])?["value"] as? Int == 2)
		#expect((event["new"] as? [String: Any])?["device"] as? String == "ops")
		#expect(event["old"] == nil)
		#expect(!watcher.receivedLines.contains { $0.contains("ignored") })
	}

	@Test("what the library would refuse is refused with one line, and nothing is written")
	func refusals() throws {
		let fleet = try Fleet()
		#expect(try fleet.fail("write", "a.b", "1", status: 64).contains("key name 'a.b' is refused by the library: a key name cannot contain '.'"))
		#expect(try fleet.fail("write", "@x", "1", status: 64).contains("cannot start with '@'"))
		#expect(try fleet.fail("write", "--value-budget", "100", "big", "-string", String(repeating: "x", count: 200), status: 1).contains("over the 100 bytes a process accepts"))
		#expect(try fleet.fail("write", "--device", "a/b", "k", "1", status: 64).contains("'a/b' cannot be used"))
		#expect(try fleet.fail("write", "count", "-int", "x", status: 64).contains("not a valid -int value"))
		#expect(try fleet.succeed("read").isEmpty)
		#expect(try FileManager.default.contentsOfDirectory(atPath: fleet.folder).isEmpty)
	}

	@Test("every verb's help is its own, wherever --help stands, and exits 0")
	func help() throws {
		let fleet = try Fleet()
		for verb in ["read", "write", "delete", "watch"] {
			let result = try fleet.sandbox.run(["fleet", verb, "--help"])
			#expect(result.status == 0 && result.output.contains("USAGE: defaults fleet \(verb) "), "\(result.output)\(result.errorOutput)")
		}

		// Where a value is expected, as for `defaults write`: `fleet write`'s help, not `write`'s (it printed a usage error before).
		let afterKey = try fleet.run("write", "theme", "--help")
		#expect(afterKey.status == 0 && afterKey.output.contains("USAGE: defaults fleet write "), "\(afterKey.output)\(afterKey.errorOutput)")
		#expect(try FileManager.default.contentsOfDirectory(atPath: fleet.folder).isEmpty)
	}

	@Test("the remote must be named, once, with the options that go with it")
	func remoteOptions() throws {
		let sandbox = ToolSandbox()
		let none = try sandbox.run("fleet", "read")
		#expect(none.status == 64 && none.errorOutput.contains("give the fleet's remote: --folder <path>"), "\(none.errorOutput)")
		let noNamespace = try sandbox.run("fleet", "write", "--postgres", "k", "1")
		#expect(noNamespace.status == 64 && noNamespace.errorOutput.contains("--postgres needs --namespace <name>"), "\(noNamespace.errorOutput)")
		let both = try sandbox.run("fleet", "read", "--folder", sandbox.folder.path, "--postgres", "--namespace", "n")
		#expect(both.status == 64 && both.errorOutput.contains("not both"), "\(both.errorOutput)")
		let missing = try sandbox.run("fleet", "read", "--folder", sandbox.folder.appendingPathComponent("nowhere").path)
		#expect(missing.status == 1 && missing.errorOutput.contains("no such folder"), "\(missing.errorOutput)")
		for result in [none, noNamespace, both, missing] {
			#expect(result.errorOutput.filter { $0 == "\n" }.count == 1 && result.output.isEmpty)
		}
	}
}

#if !Postgres
extension FleetTests {
	@Test("built without the Postgres trait, --postgres says so in one line")
	func withoutPostgresSupport() throws {
		let result = try ToolSandbox().run("fleet", "read", "--postgres", "--namespace", "billing")
		#expect(result.status == 1)
		#expect(result.errorOutput == "defaults: this defaults tool was built without PostgreSQL support (build it with --traits Postgres); --folder works without it\n")
	}
}
#endif

extension ISO8601DateFormatter {
	fileprivate static var withMilliseconds: ISO8601DateFormatter {
		let formatter = ISO8601DateFormatter()
		formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
		return formatter
	}
}
