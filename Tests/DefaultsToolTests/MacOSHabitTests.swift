import Foundation
import Testing

/// What a macOS user types: a mistyped verb, macOS-only options, a file's path as the domain, and `find`'s output.
@Suite("defaults as a macOS user types it")
struct MacOSHabitTests {
	@Test(
		"a mistyped command is named, the closest command suggested, and the commands listed",
		arguments: [
			(["raed", "com.ex.t"], "unknown command 'raed' (did you mean 'read'?)"),
			(["wirte", "com.ex.t", "k", "1"], "unknown command 'wirte' (did you mean 'write'?)"),
			(["delte", "com.ex.t"], "unknown command 'delte' (did you mean 'delete'?)"),
			(["domian"], "unknown command 'domian' (did you mean 'domains'?)"),
			(["exprot", "com.ex.t", "-"], "unknown command 'exprot' (did you mean 'export'?)"),
			(["read-typ", "com.ex.t", "k"], "unknown command 'read-typ' (did you mean 'read-type'?)"),
			(["frobnicate"], "unknown command 'frobnicate'"),
			(["com.ex.t", "k"], "unknown command 'com.ex.t'"),
		]
	)
	func unknownCommand(_ words: [String], message: String) throws {
		let sandbox = ToolSandbox()
		let result = try sandbox.run(words)
		let lines = result.errorOutput.split(separator: "\n").map(String.init)
		#expect(result.status == 64)
		#expect(result.output.isEmpty)
		#expect(lines.first == "defaults: \(message)")
		#expect(lines.dropFirst().first == "usage: defaults <command> ...; the commands:")
		for usage in ["read [<domain> [<key>]]", "write <domain> <key> [-<type>] <value>...", "domains", "find <word>", "watch <domain> [<key>]"] {
			#expect(lines.contains { $0.hasPrefix("  \(usage)  ") }, "no line for \(usage) in \(result.errorOutput)")
		}

		#expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).isEmpty)
	}

	@Test(
		"macOS's host and application options are refused with the reason, never as a domain to put after '--'",
		arguments: [
			(["-currentHost", "read", "com.ex.t"], MacOSOption.currentHost),
			(["-currentHost", "write", "com.ex.t", "k", "-int", "1"], .currentHost),
			(["-host", "box", "read", "com.ex.t"], .host),
			(["read", "-currentHost", "com.ex.t"], .currentHost),
			(["delete", "-host", "box", "com.ex.t"], .host),
			(["write", "-currentHost", "com.ex.t", "k", "1"], .currentHost),
			(["read", "-app", "Safari"], .app),
			(["read-type", "-app", "Safari", "k"], .app),
			(["write", "-app", "Safari", "k", "-int", "1"], .app),
			(["-app", "Safari", "read"], .app),
		]
	)
	func macOSOnlyOption(_ words: [String], option: MacOSOption) throws {
		let sandbox = ToolSandbox()
		let result = try sandbox.run(words)
		#expect(result.status == 64)
		#expect(result.output.isEmpty)
		#expect(result.errorOutput.hasPrefix("defaults: not supported on Linux: \(option.rawValue) "), "\(result.errorOutput)")
		#expect(!result.errorOutput.contains("'--'"))
		#expect(result.errorOutput.split(separator: "\n").count == 1)
		#expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).isEmpty)
	}

	enum MacOSOption: String {
		case currentHost = "-currentHost"
		case host = "-host"
		case app = "-app"
	}

	@Test(
		"a file's path works as the domain of every command, '.plist' added when left out",
		arguments: [("sub/settings.plist", "sub/settings.plist"), ("sub/settings", "sub/settings.plist")]
	)
	func pathAsDomain(_ typed: String, file: String) throws {
		let sandbox = ToolSandbox()
		try FileManager.default.createDirectory(at: sandbox.folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
		let domain = sandbox.folder.appendingPathComponent(typed).path
		let path = sandbox.folder.appendingPathComponent(file).path

		try sandbox.succeed("write", domain, "count", "-int", "8")
		#expect(sandbox.plist(at: path) == ["count": 8] as NSDictionary)
		#expect(try sandbox.succeed("read", domain, "count") == "8\n")
		#expect(try sandbox.succeed("read-type", domain, "count") == "Type is integer\n")
		try sandbox.succeed("rename", domain, "count", "total")
		#expect(try sandbox.succeed("export", domain, "-").contains("<key>total</key>"))
		try sandbox.succeed("import", domain, "-", input: Data("{ a = 1; b = 2; }".utf8))
		try sandbox.succeed("delete", domain, "a")
		#expect(sandbox.plist(at: path) == ["b": "2"] as NSDictionary)
		#expect(try sandbox.fail("read", domain, "a") == "defaults: key 'a' does not exist in domain '\(path)'")
		try sandbox.succeed("delete", domain)
		#expect(!FileManager.default.fileExists(atPath: path))
		#expect(try sandbox.fail("read", domain) == "defaults: file '\(path)' does not exist")
		// Nothing went to the preferences folder as a domain.
		#expect(try sandbox.succeed("domains").isEmpty)
	}

	@Test("a path that starts with '~/' is the user's home")
	func pathFromHome() throws {
		let sandbox = ToolSandbox()
		var environment = sandbox.environment
		environment["HOME"] = sandbox.folder.path
		let write = try sandbox.run(["write", "~/x.plist", "k", "-int", "1"], environment: environment)
		#expect(write.status == 0, "\(write.errorOutput)")
		#expect(sandbox.plist(at: sandbox.folder.appendingPathComponent("x.plist").path) == ["k": 1] as NSDictionary)
		let read = try sandbox.run(["read", "~/x", "k"], environment: environment)
		#expect(read.output == "1\n")
	}

	@Test("a domain made after '--' is listed by domains and read back by find", arguments: ["-odd", "--odder", "-"])
	func oddDomainIsListed(_ name: String) throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", "--", name, "key", "1")
		try sandbox.succeed("write", "plain.domain", "key", "1")
		#expect(try sandbox.succeed("domains") == "\(name), plain.domain\n")
		#expect(try sandbox.json(sandbox.succeed("domains", "--json")) as? [String] == [name, "plain.domain"])
		#expect(try sandbox.succeed("read", "--", name, "key") == "1\n")
	}

	@Test("find prints macOS's 'Found N keys in domain' lines, the global domain as 'Apple Global Domain'")
	func findFormat() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", "com.example.one", "penguin", "-int", "1")
		try sandbox.succeed("write", "com.example.two", "a", "penguins")
		try sandbox.succeed("write", "com.example.two", "b", "-string", "PENGUIN")
		try sandbox.succeed("write", "-g", "Penguin", "-bool", "yes")

		#expect(
			try sandbox.succeed("find", "penguin") == """
				Found 1 keys in domain 'Apple Global Domain': {
				    Penguin = 1;
				}
				Found 1 keys in domain 'com.example.one': {
				    penguin = 1;
				}
				Found 2 keys in domain 'com.example.two': {
				    a = penguins;
				    b = PENGUIN;
				}

				"""
		)
		// The name find printed can be typed back.
		#expect(try sandbox.succeed("read", "Apple Global Domain", "Penguin") == "1\n")
	}
}
