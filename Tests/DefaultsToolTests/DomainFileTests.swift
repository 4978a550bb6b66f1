import DefaultsTestSupport
import Foundation
import Testing

/// The global domain, whole-domain writes, and the files beside a domain: what is listed, what goes with it, what is kept.
@Suite("defaults domain files")
struct DomainFileTests {
	@Test("-g, -globalDomain and NSGlobalDomain address .GlobalPreferences.plist, which domains does not list")
	func globalDomain() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", "-g", "AppleLocale", "en_US")
		try sandbox.succeed("write", "-globalDomain", "count", "-int", "2")
		try sandbox.succeed("write", "NSGlobalDomain", "flag", "-bool", "yes")

		#expect(try sandbox.fileContents(of: ".GlobalPreferences") as NSDictionary == ["AppleLocale": "en_US", "count": 2, "flag": true] as NSDictionary)
		#expect(try sandbox.succeed("read", "-g", "AppleLocale") == "en_US\n")
		#expect(try sandbox.succeed("read", "NSGlobalDomain", "count") == "2\n")
		#expect(try sandbox.succeed("read-type", "-globalDomain", "flag") == "Type is boolean\n")
		#expect(try sandbox.succeed("domains").isEmpty)
		try sandbox.succeed("delete", "-g", "count")
		#expect(try sandbox.succeed("read", "-g") == "{\n    AppleLocale = en_US;\n    flag = 1;\n}\n")
		#expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).filter { !$0.hasPrefix(".") }.isEmpty)
	}

	@Test("a dictionary in braces in place of the key replaces the whole domain")
	func domainLiteral() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "old", "-int", "1")
		try sandbox.succeed("write", sandbox.domain, "{ greeting = hello; tags = (a, b); nested = { k = v; }; }")
		#expect(try sandbox.fileContents() as NSDictionary == ["greeting": "hello", "tags": ["a", "b"], "nested": ["k": "v"]] as NSDictionary)

		#expect(try sandbox.fail("write", sandbox.domain, "{ a = 1") == "defaults: '{ a = 1' is not a property-list dictionary such as '{ key = value; }'; to write one key, give the key and then its value")
		#expect(try sandbox.fileContents()["greeting"] as? String == "hello")
	}

	@Test("write --path refuses a folder that does not exist, and creates none")
	func writePathMissingFolder() throws {
		let sandbox = ToolSandbox()
		let path = sandbox.folder.appendingPathComponent("missing/dir/x.plist").path
		let result = try sandbox.run("write", "--path", path, "k", "v")
		#expect(result.status == 1)
		#expect(result.errorOutput == "defaults: cannot write \(path): no such folder (create it first)\n")
		#expect(!FileManager.default.fileExists(atPath: sandbox.folder.appendingPathComponent("missing").path))
	}

	@Test("domains lists no file the library keeps for itself")
	func internalFilesHidden() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", "a.domain", "k", "-int", "1")
		for name in [
			"a.domain.defaults-sync.plist", "device.defaults-journal.plist", ".GlobalPreferences.plist",
			".a.domain.plist.123.456.tmp", "a.domain.unreadable-20261122T000000.000.plist",
		] {
			try Data("x".utf8).write(to: sandbox.folder.appendingPathComponent(name))
		}

		#expect(try sandbox.succeed("domains") == "a.domain\n")
		#expect(try sandbox.json(sandbox.succeed("domains", "--json")) as? [String] == ["a.domain"])
	}

	@Test("a name with a line break, comma or backslash is escaped on the one line; JSON keeps it exact")
	func escapedNames() throws {
		let sandbox = ToolSandbox()
		for name in ["two\nlines", "a,b", #"back\slash"#, "plain"] {
			try sandbox.succeed("write", name, "k", "-int", "1")
		}

		#expect(try sandbox.succeed("domains") == #"a\,b, back\\slash, plain, two\nlines"# + "\n")
		#expect(try sandbox.json(sandbox.succeed("domains", "--json")) as? [String] == ["a,b", #"back\slash"#, "plain", "two\nlines"])
	}

	@Test("deleting a domain removes its lock files, sync ledger and stale temporary files, and nothing else")
	func deleteRemovesCompanions() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "k", "-int", "1")
		try sandbox.succeed("write", "\(sandbox.domain).defaults-sync", "k", "-int", "1")
		try sandbox.succeed("write", "other.domain", "k", "-int", "1")
		try Data("x".utf8).write(to: sandbox.folder.appendingPathComponent(".\(sandbox.domain).plist.99.1.tmp"))
		// The lock `Defaults.migrate` leaves, empty, as the library makes it.
		try Data().write(to: sandbox.folder.appendingPathComponent(".\(sandbox.domain).plist.migration.lock"))
		#expect(try sandbox.succeed("domains") == "\(sandbox.domain), other.domain\n")

		try sandbox.succeed("delete", sandbox.domain)
		#expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).sorted() == [".other.domain.plist.lock", "other.domain.plist"])
	}

	@Test("a delete cut short after the domain's file went is finished by the next delete, which removes the ledger and lock files left")
	func deleteFinishesWhatWasLeft() throws {
		let sandbox = ToolSandbox()
		// What `delete D` left when its ledger's lock was busy: the file gone, the rest still there.
		try sandbox.succeed("write", "\(sandbox.domain).defaults-sync", "k", "-int", "1")
		try Data().write(to: sandbox.folder.appendingPathComponent(".\(sandbox.domain).plist.lock"))
		try Data().write(to: sandbox.folder.appendingPathComponent(".\(sandbox.domain).plist.migration.lock"))

		let result = try sandbox.run("delete", sandbox.domain)
		#expect(result.status == 0, "\(result.errorOutput)")
		#expect(result.errorOutput == "defaults: \(sandbox.domain).plist was already gone; removed the files kept beside it\n")
		#expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).isEmpty)
		#expect(try sandbox.fail("delete", sandbox.domain).contains("'\(sandbox.domain)' does not exist"), "nothing left: the domain does not exist")
	}

	@Test("one file written through a link and by its own name at once loses no write: both lock beside the target")
	func linkAndTargetWritersExcludeEachOther() throws {
		let linked = ToolSandbox()
		let target = ToolSandbox()
		try target.succeed("write", "real", "initial", "-int", "0")
		#expect(symlink(target.folder.appendingPathComponent("real.plist").path, linked.folder.appendingPathComponent("linked.plist").path) == 0)

		let count = TestEnvironment.count("DEFAULTS_TOOL_LINK_WRITES", default: 40)
		let tool = ChildProcess.executable(named: "defaults").path
		let loop = "for i in $(seq \(count)); do \"$0\" write \"$1\" \"$2$i\" -int \"$i\" || exit 1; done"
		let writers = try [(linked, "linked", "viaLink"), (target, "real", "byName")].map { sandbox, domain, prefix in
			try ChildProcess(path: "/bin/sh", ["-c", loop, tool, domain, prefix], environment: sandbox.environment)
		}
		#expect(writers.map { $0.waitUntilExit() } == [0, 0], "\(writers.map(\.errorOutputText))")

		let keys = Array(try target.fileContents(of: "real").keys)
		#expect(keys.count == 1 + 2 * count, "lost: \((1...count).flatMap { ["viaLink\($0)", "byName\($0)"] }.filter { !keys.contains($0) })")
	}

	@Test("an unreadable domain names its repair, and delete moves it aside, keeping it, so the domain starts over")
	func repairUnreadable() throws {
		let sandbox = ToolSandbox()
		let garbage = Data("<?xml version=\"1.0\"?><plist><dict><key>a</key>".utf8)
		try garbage.write(to: sandbox.fileURL)

		let failure = try sandbox.run("read", sandbox.domain)
		#expect(failure.status == 1)
		#expect(failure.errorOutput == "defaults: \(sandbox.fileURL.path) is not a readable property list; it was left as it is ('defaults delete \(sandbox.domain)' moves it aside, keeping it, so the domain can start over)\n")

		let deletion = try sandbox.run("delete", sandbox.domain)
		#expect(deletion.status == 0)
		let asides = try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).filter { $0.contains(".unreadable-") }
		#expect(asides.count == 1)
		let aside = sandbox.folder.appendingPathComponent(try #require(asides.first)).path
		#expect(deletion.errorOutput == "\(sandbox.fileURL.path) was not a readable property list: moved aside to \(aside)\n")
		#expect(FileManager.default.contents(atPath: aside) == garbage)

		try sandbox.succeed("write", sandbox.domain, "fresh", "-int", "1")
		#expect(try sandbox.succeed("domains") == "\(sandbox.domain)\n")

		// A second damaged file goes to another name: the first aside is never replaced.
		try garbage.write(to: sandbox.fileURL)
		#expect(try sandbox.run("delete", sandbox.domain).status == 0)
		#expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).filter { $0.contains(".unreadable-") }.count == 2)
	}

	@Test("the repair names -g and --path targets the way they were given")
	func repairNamesTarget() throws {
		let sandbox = ToolSandbox()
		let garbage = Data("not a plist {".utf8)
		try garbage.write(to: sandbox.fileURL(of: ".GlobalPreferences"))
		#expect(try sandbox.fail("read", "-g").hasSuffix("('defaults delete -g' moves it aside, keeping it, so the domain can start over)"))

		let path = sandbox.folder.appendingPathComponent("my file.plist").path
		try garbage.write(to: URL(fileURLWithPath: path))
		#expect(try sandbox.fail("read", "--path", path).hasSuffix("('defaults delete --path '\(path)'' moves it aside, keeping it, so the domain can start over)"))
		let deletion = try sandbox.run("delete", "--path", path)
		#expect(deletion.status == 0)
		#expect(!FileManager.default.fileExists(atPath: path))
	}
}
