import DefaultsTestSupport
import Foundation
import Testing

/// Every failure exits non-zero with one line on standard error, and leaves what is stored untouched.
@Suite("defaults errors")
struct ErrorTests {
	@Test("an unknown domain or key is named")
	func unknownDomainOrKey() throws {
		let sandbox = ToolSandbox()
		#expect(try sandbox.fail("read", "no.such.domain") == "defaults: domain 'no.such.domain' does not exist (see 'defaults domains')")
		#expect(try sandbox.fail("delete", "no.such.domain").contains("'no.such.domain' does not exist"))
		#expect(try sandbox.fail("export", "no.such.domain", "-").contains("'no.such.domain' does not exist"))

		try sandbox.succeed("write", sandbox.domain, "present", "-int", "1")
		#expect(try sandbox.fail("read", sandbox.domain, "absent") == "defaults: key 'absent' does not exist in domain '\(sandbox.domain)'")
		#expect(try sandbox.fail("read-type", sandbox.domain, "absent").contains("key 'absent' does not exist"))
		#expect(try sandbox.fail("delete", sandbox.domain, "absent").contains("key 'absent' does not exist"))
		#expect(try sandbox.fail("rename", sandbox.domain, "absent", "other").contains("key 'absent' does not exist"))
		#expect(try sandbox.fileContents() as NSDictionary == ["present": 1] as NSDictionary)
	}

	@Test(
		"a value that does not parse as its type is refused",
		arguments: [
			(["-int", "1.5"], "'1.5' is not a valid -int value"),
			(["-int", "99999999999999999999999"], "is not a valid -int value"),
			(["-float", "fast"], "'fast' is not a valid -float value"),
			(["-float", "nan"], "'nan' is not a valid -float value"),
			(["-bool", "maybe"], "'maybe' is not a valid -bool value"),
			(["-date", "yesterday"], "'yesterday' is not a valid -date value"),
			(["-date", "2024-02-30T00:00:00Z"], "'2024-02-30T00:00:00Z' is not a valid -date value: expected a date that exists (2024-02 has no day 30)"),
			(["-date", "2023-02-29"], "expected a date that exists (2023-02 has no day 29)"),
			(["-date", "2024-13-01"], "expected a date that exists (there is no month 13)"),
			(["-date", "2024-01-01 24:00:00 +0000"], "expected a date that exists (there is no hour 24)"),
			(["-array", "-date", "2024-04-31"], "expected a date that exists (2024-04 has no day 31)"),
			(["-data", "abc"], "'abc' is not a valid -data value"),
			(["-data", "zz"], "'zz' is not a valid -data value"),
			(["-data", "+a+b"], "'+a+b' is not a valid -data value"),
			(["{a=1"], "'{a=1' is not a valid property list; store it as text with -string"),
			(["(1,2"], "'(1,2' is not a valid property list"),
			(["-array-add", "-array", "x"], "'-array' is not a valid -array-add value"),
			(["-int", "1\n2"], "'1\\n2' is not a valid -int value"),
			(["-json", "{"], "is not a valid -json value"),
			(["-json", #"{"a":null}"#], "expected JSON (null at a has no property-list equivalent)"),
			(["-array", "-int", "x"], "'x' is not a valid -int value"),
			(["-dict", "lonely"], "'lonely' is not a valid -dict value: expected a value after the key"),
			(["-int"], "-int needs a value"),
			([], "missing value; usage: defaults write"),
			(["one", "two"], "unexpected argument 'two'"),
		]
	)
	func invalidValue(_ value: [String], message: String) throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "key", "-int", "7")

		let result = try sandbox.run(["write", sandbox.domain, "key"] + value)
		#expect(result.status != 0)
		#expect(result.errorOutput.contains(message), "\(result.errorOutput)")
		#expect(result.errorOutput.split(separator: "\n").count == 1)
		#expect(try sandbox.fileContents() as NSDictionary == ["key": 7] as NSDictionary)
	}

	@Test("adding to a value that is not a container is refused")
	func addToScalar() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "name", "-string", "x")
		#expect(try sandbox.fail("write", sandbox.domain, "name", "-array-add", "y").contains("key 'name' holds a string, not an array"))
		#expect(try sandbox.fail("write", sandbox.domain, "name", "-dict-add", "k", "v").contains("key 'name' holds a string, not a dictionary"))
		#expect(try sandbox.fileContents()["name"] as? String == "x")
	}

	@Test("an unreadable file is reported and left exactly as it was")
	func unreadableFile() throws {
		let sandbox = ToolSandbox()
		let garbage = Data("<?xml version=\"1.0\"?><plist><dict><key>a</key>".utf8)
		try garbage.write(to: sandbox.fileURL)
		try sandbox.succeed("write", "healthy.domain", "k", "-int", "1")

		for arguments in [["read", sandbox.domain], ["write", sandbox.domain, "b", "-int", "1"], ["rename", sandbox.domain, "a", "b"], ["export", sandbox.domain, "-"]] {
			let result = try sandbox.run(arguments)
			#expect(result.status != 0)
			#expect(result.errorOutput.hasPrefix("defaults: \(sandbox.fileURL.path) is not a readable property list; it was left as it is ('defaults delete "))
		}

		let everything = try sandbox.run("read", "--json")
		#expect(everything.status != 0)
		#expect(everything.output.contains("healthy.domain"))
		#expect(everything.errorOutput.contains("skipped unreadable files: \(sandbox.fileURL.path)"))
		#expect(try Data(contentsOf: sandbox.fileURL) == garbage)
	}

	@Test("a domain name that would leave the folder is refused", arguments: ["../escape", "a/b", ".", ".."])
	func escapingDomain(_ name: String) throws {
		let sandbox = ToolSandbox()
		#expect(try sandbox.fail("write", name, "k", "-int", "1").contains("domain name '\(name)' would leave the preferences folder"))
		#expect(try sandbox.fail("read", name).contains("would leave the preferences folder"))
		#expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.deletingLastPathComponent().path).contains("escape") == false)
	}

	@Test("missing or extra operands name what to type")
	func usage() throws {
		let sandbox = ToolSandbox()
		#expect(try sandbox.fail("write") == "defaults: missing domain; usage: defaults write <domain> <key> [-<type>] <value>...")
		#expect(try sandbox.fail("read-type", sandbox.domain) == "defaults: missing key; usage: defaults read-type <domain> <key>")
		#expect(try sandbox.fail("read", sandbox.domain, "key", "extra").contains("unexpected argument 'extra'"))
		#expect(try sandbox.run("frobnicate").errorOutput.hasPrefix("defaults: unknown command 'frobnicate'\n"))
		#expect(try sandbox.fail("read", "--jsn").contains("--jsn"))
		#expect(try sandbox.fail("export", sandbox.domain, "-", "--format", "yaml").contains("yaml"))
	}

	@Test("import refuses input that is not a dictionary and keeps the domain")
	func badImport() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "keep", "-int", "1")
		#expect(try sandbox.fail("import", sandbox.domain, "-", input: Data("not a plist {".utf8)).contains("cannot read standard input"))
		#expect(try sandbox.fail("import", sandbox.domain, "-", input: Data("(a, b)".utf8)).contains("holds an array, not a dictionary"))
		#expect(try sandbox.fail("import", sandbox.domain, "-", input: Data("[1]".utf8)).contains("cannot read standard input"))
		#expect(try sandbox.fail("import", sandbox.domain, "/no/such/file.plist").contains("cannot read /no/such/file.plist"))
		#expect(try sandbox.fail("import", sandbox.domain, "-", input: Data(" \n\t".utf8)).contains("it is empty"))
		#expect(try sandbox.fileContents() as NSDictionary == ["keep": 1] as NSDictionary)
	}

	@Test("without HOME or XDG_CONFIG_HOME there is no folder, and nothing is written to /.config")
	func noHome() throws {
		let sandbox = ToolSandbox()
		var environment = sandbox.environment
		environment["HOME"] = nil
		environment["XDG_CONFIG_HOME"] = nil
		let result = try sandbox.run(["write", "x.domain", "k", "-int", "1"], environment: environment)
		#expect(result.status != 0)
		#expect(result.errorOutput.contains("no preferences folder: set HOME or an absolute XDG_CONFIG_HOME"))
		#expect(!FileManager.default.fileExists(atPath: "/.config/x.domain.plist"))
	}

	@Test("a failed command leaves no folder or lock file behind")
	func failuresLeaveNoTrace() throws {
		let sandbox = ToolSandbox()
		try FileManager.default.removeItem(at: sandbox.folder)
		_ = try sandbox.fail("delete", "missing.domain")
		_ = try sandbox.fail("delete", "missing.domain", "key")
		_ = try sandbox.fail("rename", "missing.domain", "a", "b")
		let nested = sandbox.folder.appendingPathComponent("a/b/file.plist").path
		#expect(try sandbox.fail("delete", "--path", nested, "key") == "defaults: file '\(nested)' does not exist")
		#expect(!FileManager.default.fileExists(atPath: sandbox.folder.path))
	}

	@Test("export names the destination it cannot write")
	func exportDestinationErrors() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "k", "-int", "1")
		#expect(try sandbox.fail("export", sandbox.domain, "/no/such/folder/x.plist").hasPrefix("defaults: cannot write /no/such/folder/x.plist"))
		#expect(try sandbox.fail("export", sandbox.domain, sandbox.folder.path) == "defaults: cannot write \(sandbox.folder.path): it is a folder")
	}

	@Test(
		"output that cannot be written ends the tool with one line and status 1, not a trap",
		arguments: [
			(redirect: "> /dev/full", arguments: ["read"], reason: "defaults: cannot write the output: No space left on device\n"),
			(redirect: ">&-", arguments: ["read"], reason: "defaults: cannot write the output: Bad file descriptor\n"),
			(redirect: "2> /dev/full", arguments: ["write", "-array-add"], reason: ""),
		]
	)
	func unwritableOutput(redirect: String, arguments: [String], reason: String) throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "present", "-int", "1")
		let tool = ChildProcess.executable(named: "defaults").path
		// `write D present -array-add` fails (an Int is no array), with its reason going to the full device.
		let command = arguments == ["read"] ? [tool, "read", sandbox.domain] : [tool, "write", sandbox.domain, "present", "-array-add", "x"]
		let result = try ChildProcess.run(path: "/bin/sh", ["-c", "exec \"$@\" \(redirect)", "sh"] + command, environment: sandbox.environment)
		#expect(result.status == 1, "\(result.errorOutput)")
		#expect(result.errorOutput == reason)
		#expect(try sandbox.fileContents() as NSDictionary == ["present": 1] as NSDictionary)
	}
}
