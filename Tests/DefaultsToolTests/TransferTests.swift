import DefaultsTestSupport
import Foundation
import Testing

/// `import` and `export` with the library's own files: its exports, its migration version, standard output.
@Suite("defaults import and export with the library's files")
struct TransferTests {
	private static let version = "@Defaults.migrationVersion"

	@Test("restoring an export without the migration version runs no migration again")
	func importKeepsTheMigrationVersion() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "count", "-int", "3")
		let log = sandbox.folder.appendingPathComponent("migrations.log").path
		// The helper's migration 2 doubles `count`: running it again on migrated values would double it twice.
		let first = try ChildProcess.run("DefaultsTestHelper", ["migrate", sandbox.domain, log, "0"], environment: sandbox.environment)
		#expect(first.output.contains("read name=- count=6.0"), "\(first.output)\(first.errorOutput)")

		// What `Defaults.exportSettings(format: .propertyList)` writes: the values, not the version.
		var exported = try sandbox.fileContents()
		#expect(exported.removeValue(forKey: Self.version) as? Int == 2)
		let backup = sandbox.folder.appendingPathComponent("backup.plist")
		try PropertyListSerialization.data(fromPropertyList: exported, format: .binary, options: 0).write(to: backup)
		try sandbox.succeed("import", sandbox.domain, backup.path)
		#expect(try sandbox.fileContents()[Self.version] as? Int == 2, "the domain's version is kept")

		let again = try ChildProcess.run("DefaultsTestHelper", ["migrate", sandbox.domain, log, "0"], environment: sandbox.environment)
		#expect(again.output.contains("result 2 2 \n"), "no migration runs: \(again.output)")
		#expect(again.output.contains("read name=- count=6.0"), "\(again.output)")

		// An input with a version of its own brings it, as macOS's import replaces the whole domain.
		try sandbox.succeed("import", sandbox.domain, "-", input: Data(#"{"count": 3, "@Defaults.migrationVersion": 1}"#.utf8))
		#expect(try sandbox.fileContents()[Self.version] as? Int == 1)

		// And a whole domain written as a dictionary keeps it too.
		try sandbox.succeed("write", sandbox.domain, "{ name = x; }")
		#expect(try sandbox.fileContents() as NSDictionary == ["name": "x", Self.version: 1] as NSDictionary)
	}

	@Test(
		"a migration version that is not an integer is refused with one line, in the input or in the domain",
		arguments: [#""2""#, "2.0"]
	)
	func nonIntegerVersion(_ json: String) throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "keep", "-int", "1")
		let input = Data(#"{"count": 3, "@Defaults.migrationVersion": \#(json)}"#.utf8)
		let kind = json.hasPrefix("\"") ? "a string" : "a real number"
		#expect(
			try sandbox.fail("import", sandbox.domain, "-", input: input)
				== "defaults: standard input records the migration version, @Defaults.migrationVersion, as \(kind) (\(json)), not an integer; nothing was replaced"
		)

		try sandbox.succeed("write", sandbox.domain, Self.version, "-json", json)
		let before = try sandbox.fileContents() as NSDictionary
		let message = try sandbox.fail("import", sandbox.domain, "-", input: Data(#"{"count": 3}"#.utf8))
		#expect(
			message == "defaults: domain '\(sandbox.domain)' records the migration version, @Defaults.migrationVersion, as \(kind) (\(json)), not an integer; "
				+ "nothing was replaced (set it with 'defaults write \(sandbox.domain) @Defaults.migrationVersion -int N' first)"
		)
		#expect(try sandbox.fileContents() as NSDictionary == before)
	}

	@Test("the library's JSON export imports with its data and dates, not as dictionaries")
	func importReadsTheLibrarysTags() throws {
		let sandbox = ToolSandbox()
		let export = #"""
			{
			  "token" : { "$data" : "AAEC/w==" },
			  "launched" : { "$date" : "2026-09-21T14:13:20.125Z" },
			  "history" : [ { "$date" : "2024-01-01T00:00:00Z" } ],
			  "lookalike" : { "$$date" : "2024-01-01T00:00:00Z" },
			  "plain" : { "$date" : 5 }
			}
			"""#
		try sandbox.succeed("import", sandbox.domain, "-", input: Data(export.utf8))

		#expect(try sandbox.succeed("read-type", sandbox.domain, "token") == "Type is data\n")
		#expect(try sandbox.succeed("read-type", sandbox.domain, "launched") == "Type is date\n")
		let contents = try sandbox.fileContents()
		#expect(contents["token"] as? Data == Data([0, 1, 2, 255]))
		#expect(contents["launched"] as? Date == Date(timeIntervalSince1970: 1_790_000_000.125))
		#expect((contents["history"] as? [Any])?.first as? Date == Date(timeIntervalSince1970: 1_704_067_200))
		#expect(contents["lookalike"] as? NSDictionary == ["$date": "2024-01-01T00:00:00Z"] as NSDictionary, "an escaped dictionary of the user's")
		#expect(contents["plain"] as? NSDictionary == ["$date": 5] as NSDictionary)
	}

	@Test("a malformed tag is refused with one line and the domain kept")
	func malformedTag() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "keep", "-int", "1")
		#expect(
			try sandbox.fail("import", sandbox.domain, "-", input: Data(#"{"token": {"$data": "%%%"}}"#.utf8))
				== "defaults: cannot read standard input: 'token': malformed $data value: not Base64"
		)
		#expect(
			try sandbox.fail("import", sandbox.domain, "-", input: Data(#"{"when": [{"$date": "2024-02-30T00:00:00Z"}]}"#.utf8))
				== "defaults: cannot read standard input: 'when': malformed $date value at [0]: '2024-02-30T00:00:00Z' is not an ISO 8601 date (2024-02 has no day 30)"
		)
		#expect(try sandbox.fileContents() as NSDictionary == ["keep": 1] as NSDictionary)
	}

	@Test("export writes to /dev/stdout and /dev/stderr, whatever they are")
	func exportToStandardOutput() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "k", "-string", "v")

		// Standard output is a pipe here.
		let piped = try sandbox.succeed("export", sandbox.domain, "/dev/stdout")
		#expect(piped.contains("<key>k</key>"))
		let toError = try sandbox.run("export", sandbox.domain, "/dev/stderr")
		#expect(toError.status == 0)
		#expect(toError.errorOutput.contains("<key>k</key>") && toError.output.isEmpty)

		// A file the shell opened for appending is appended to, not replaced.
		let file = sandbox.folder.appendingPathComponent("out.txt").path
		try Data("before\n".utf8).write(to: URL(fileURLWithPath: file))
		let tool = ChildProcess.executable(named: "defaults").path
		let appended = try ChildProcess.run(path: "/bin/sh", ["-c", "exec \"$@\" >> \"$0\"", file, tool, "export", sandbox.domain, "/dev/stdout"], environment: sandbox.environment)
		#expect(appended.status == 0, "\(appended.errorOutput)")
		let written = try String(contentsOfFile: file, encoding: .utf8)
		#expect(written.hasPrefix("before\n<?xml") && written.contains("<key>k</key>"))
	}

	@Test("export names a closed standard output instead of a missing file")
	func exportToClosedStandardOutput() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "k", "-string", "v")
		let tool = ChildProcess.executable(named: "defaults").path
		let result = try ChildProcess.run(path: "/bin/sh", ["-c", "exec \"$@\" >&-", "sh", tool, "export", sandbox.domain, "/dev/stdout"], environment: sandbox.environment)
		#expect(result.status == 1)
		#expect(result.errorOutput == "defaults: cannot write /dev/stdout: descriptor 1 is not open\n")
	}

	@Test("delete while a migration holds the suite says so")
	func deleteDuringMigration() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "k", "-int", "1")
		// A migration holds this lock while it runs (see `Defaults.migrate`).
		let lock = sandbox.folder.appendingPathComponent(".\(sandbox.domain).plist.migration.lock").path
		let descriptor = open(lock, O_RDWR | O_CREAT, 0o600)
		#expect(descriptor >= 0 && flock(descriptor, LOCK_EX) == 0)
		defer { close(descriptor) }

		let message = try sandbox.fail("delete", sandbox.domain)
		#expect(message.hasPrefix("defaults: a migration of this suite, by this process or another, held its migration lock \(lock) for more than "), "\(message)")
		#expect(try sandbox.fileContents() as NSDictionary == ["k": 1] as NSDictionary)
	}
}
