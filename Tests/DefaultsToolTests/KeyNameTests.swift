import Foundation
import Testing

/// The tool creates no key the library refuses: a name `Defaults.importSettings` and `Defaults.exportSettings` would refuse never gets into a file.
@Suite("defaults and the library's key-name rules")
struct KeyNameTests {
	/// A name the library refuses, and the rule it breaks as the library words it.
	static let refusedNames = [
		("a.b", "a key name cannot contain '.'"),
		("@x", "a key name cannot start with '@'"),
		("caf\u{E9}", "a key name must be ASCII"),
		("", "a key name cannot be empty"),
	]

	@Test("every command that creates a key refuses a name the library refuses, with one line, and writes nothing", arguments: refusedNames)
	func refused(name: String, reason: String) throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "kept", "-int", "1")
		let expected = "defaults: key name '\(name)' is refused by the library: \(reason); nothing was written"
		let quoted = "\"\(name)\""
		let input = sandbox.folder.appendingPathComponent("input-\(UUID().uuidString).plist")
		try PropertyListSerialization.data(fromPropertyList: [name: 1, "other": 2], format: .xml, options: 0).write(to: input)
		let path = sandbox.folder.appendingPathComponent("by-path-\(UUID().uuidString).plist").path

		#expect(try sandbox.fail("write", sandbox.domain, name, "value") == expected)
		#expect(try sandbox.fail("write", sandbox.domain, name, "-array-add", "x") == expected)
		#expect(try sandbox.fail("write", sandbox.domain, name, "-dict-add", "k", "v") == expected)
		#expect(try sandbox.fail("write", sandbox.domain, "{ \(quoted) = 1; other = 2; }") == expected)
		#expect(try sandbox.fail("import", sandbox.domain, input.path) == expected)
		#expect(try sandbox.fail("import", sandbox.domain, "-", input: Data(#"{\#(quoted): 1, "other": 2}"#.utf8)) == expected)
		#expect(try sandbox.fail("rename", sandbox.domain, "kept", name) == expected)
		#expect(try sandbox.fileContents() as NSDictionary == ["kept": 1] as NSDictionary, "nothing was written")

		#expect(try sandbox.fail("write", "-g", name, "-int", "1") == expected)
		#expect(try sandbox.fail("write", path, name, "-int", "1") == expected)
		#expect(try sandbox.fail("write", "--path", path, name, "-int", "1") == expected)
		#expect(try sandbox.fail("import", "--path", path, input.path) == expected)
		#expect(!FileManager.default.fileExists(atPath: path))
		#expect(!FileManager.default.fileExists(atPath: sandbox.fileURL(of: ".GlobalPreferences").path))
	}

	@Test("a refused name is a mistake in the command line: exit status 64")
	func exitStatus() throws {
		let sandbox = ToolSandbox()
		let result = try sandbox.run("write", sandbox.domain, "a.b", "value")
		#expect(result.status == 64)
	}

	@Test("a name another program stored can still be read, renamed to a valid name and deleted; the migration version can still be set")
	func existingNamesAndTheMigrationVersion() throws {
		let sandbox = ToolSandbox()
		let foreign = try PropertyListSerialization.data(fromPropertyList: ["a.b": "theirs", "c.d": 2], format: .binary, options: 0)
		try foreign.write(to: sandbox.fileURL)

		#expect(try sandbox.succeed("read", sandbox.domain, "a.b") == "theirs\n")
		try sandbox.succeed("rename", sandbox.domain, "a.b", "ab")
		try sandbox.succeed("delete", sandbox.domain, "c.d")
		try sandbox.succeed("write", sandbox.domain, "@Defaults.migrationVersion", "-int", "2")
		try sandbox.succeed("import", sandbox.domain, "-", input: Data(#"{"ab": "mine", "@Defaults.migrationVersion": 3}"#.utf8))
		#expect(try sandbox.fileContents() as NSDictionary == ["ab": "mine", "@Defaults.migrationVersion": 3] as NSDictionary)
	}
}
