import Foundation
import Testing

/// Which words are options, which are operands, and what a mistyped one does: never a file named after it.
@Suite("defaults option words")
struct OptionWordTests {
	static let subcommands = ["read", "read-type", "write", "delete", "rename", "domains", "find", "export", "import", "watch"]

	@Test("every subcommand prints its help for -h and --help, and touches nothing", arguments: subcommands, ["-h", "--help"])
	func help(_ subcommand: String, _ flag: String) throws {
		let sandbox = ToolSandbox()
		let result = try sandbox.run([subcommand, flag])
		#expect(result.status == 0, "\(result.errorOutput)")
		#expect(result.output.hasPrefix("OVERVIEW: "))
		#expect(result.output.contains("USAGE: defaults \(subcommand)"))
		#expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).isEmpty)
	}

	@Test(
		"write prints help wherever an option or a type is expected",
		arguments: [["--help", "dom", "key"], ["-h", "dom"], ["dom", "--help"], ["dom", "key", "--help"], ["dom", "key", "-h"], ["-g", "--help"]]
	)
	func writeHelp(_ words: [String]) throws {
		let sandbox = ToolSandbox()
		let result = try sandbox.run(["write"] + words)
		#expect(result.status == 0, "\(result.errorOutput)")
		#expect(result.output.hasPrefix("OVERVIEW: Store a typed value"))
		#expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).isEmpty)
	}

	@Test(
		"a domain or key that looks like an option is refused, with the command that names it",
		arguments: [
			(["write", "-int", "k", "v"], "unknown option '-int'; a domain or key that starts with '-' goes after '--': defaults write -- -int k v"),
			(["write", "--bogus", "k", "v"], "unknown option '--bogus'; a domain or key that starts with '-' goes after '--': defaults write -- --bogus k v"),
			(["write", "dom", "-key", "v"], "unknown option '-key'; a domain or key that starts with '-' goes after '--': defaults write dom -- -key v"),
			(["write", "-g", "-key", "v"], "unknown option '-key'; a domain or key that starts with '-' goes after '--': defaults write -g -- -key v"),
			(["delete", "-dash"], "unknown option '-dash'; a domain or key that starts with '-' goes after '--': defaults delete -- -dash"),
			(["read", "-dash", "key"], "unknown option '-dash'; a domain or key that starts with '-' goes after '--': defaults read -- -dash key"),
			(["rename", "dom", "-a", "b"], "unknown option '-a'; a domain or key that starts with '-' goes after '--' (see --help)"),
			(["read", "--jsn"], "unknown option '--jsn' (did you mean '--json'?); a domain or key that starts with '-' goes after '--' (see --help)"),
		]
	)
	func optionLikeOperand(_ words: [String], message: String) throws {
		let sandbox = ToolSandbox()
		let result = try sandbox.run(words)
		#expect(result.status == 64)
		#expect(result.output.isEmpty)
		#expect(result.errorOutput == "defaults: \(message)\n")
		#expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).isEmpty)
	}

	@Test("after --, a domain and a key may start with '-'")
	func afterTerminator() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", "--", "-int", "-key", "-int", "5")
		#expect(try sandbox.fileContents(of: "-int") as NSDictionary == ["-key": 5] as NSDictionary)
		#expect(try sandbox.succeed("read", "--", "-int", "-key") == "5\n")
		try sandbox.succeed("delete", "--", "-int", "-key")
		try sandbox.succeed("delete", "--", "-int")
		#expect(!FileManager.default.fileExists(atPath: sandbox.fileURL(of: "-int").path))
	}

	@Test(
		"a mistyped type is refused, naming the valid ones, and nothing is stored",
		arguments: [["-itn", "5"], ["--strin", "x"], ["-x"], ["-array", "a", "-itn", "5"], ["-dict", "k", "-bool-", "yes"]]
	)
	func mistypedType(_ value: [String]) throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "key", "-int", "7")
		let result = try sandbox.run(["write", sandbox.domain, "key"] + value)
		let typo = try #require(value.first { $0.hasPrefix("-") && !["-array", "-dict"].contains($0) })
		#expect(result.status == 64)
		#expect(result.errorOutput == "defaults: unknown type '\(typo)'; use one of -string, -int, -float, -bool, -date, -data, -json, -array, -array-add, -dict, -dict-add (text that starts with '-' is written with -string)\n")
		#expect(try sandbox.fileContents() as NSDictionary == ["key": 7] as NSDictionary)
	}

	@Test("--version prints the version")
	func version() throws {
		let sandbox = ToolSandbox()
		let output = try sandbox.succeed("--version")
		#expect(output.wholeMatch(of: /\d+\.\d+\.\d+\n/) != nil)
	}

	static let statuses: [(words: [String], status: Int32)] = [
		(["write"], 64),
		(["write", "d", "k", "-int", "x"], 64),
		(["write", "d", "k", "-dict", "lonely"], 64),
		(["-currentHost", "read", "d"], 64),
		(["find"], 64),
		(["read", "d", "k", "extra"], 64),
		(["read", "../d"], 64),
		(["read", "-g", "--path", "/tmp/x.plist"], 64),
		(["read", "no.such.domain"], 1),
		(["read-type", "no.such.domain", "k"], 1),
		(["export", "no.such.domain", "/no/such/folder/x.plist"], 1),
		(["import", "d", "/no/such/file.plist"], 1),
	]

	@Test("usage errors exit 64, failures exit 1, both as one lowercase line", arguments: statuses)
	func exitStatus(_ words: [String], status: Int32) throws {
		let sandbox = ToolSandbox()
		let result = try sandbox.run(words)
		#expect(result.status == status, "\(result.errorOutput)")
		let lines = result.errorOutput.split(separator: "\n")
		#expect(lines.count == 1)
		let first = result.errorOutput.dropFirst("defaults: ".count).first
		#expect(result.errorOutput.hasPrefix("defaults: ") && first?.isUppercase == false, "\(result.errorOutput)")
	}
}
