import Defaults
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("defaults domains, delete, rename, find, export and import")
struct DomainCommandTests {
	@Test("domains lists the suite files, and nothing else in the folder")
	func domains() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", "b.domain", "k", "-int", "1")
		try sandbox.succeed("write", "a.domain", "k", "-int", "1")
		_ = FileManager.default.createFile(atPath: sandbox.folder.appendingPathComponent("notes.txt").path, contents: Data())
		_ = FileManager.default.createFile(atPath: sandbox.folder.appendingPathComponent("a.domain.unreadable-20261122T000000.000.plist").path, contents: Data("x".utf8))

		#expect(try sandbox.succeed("domains") == "a.domain, b.domain\n")
		#expect(try sandbox.json(sandbox.succeed("domains", "--json")) as? [String] == ["a.domain", "b.domain"])
	}

	@Test("delete removes a key, then the whole domain and its file")
	func delete() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "a", "-int", "1")
		try sandbox.succeed("write", sandbox.domain, "b", "-int", "2")

		try sandbox.succeed("delete", sandbox.domain, "a")
		#expect(try sandbox.fileContents().keys.sorted() == ["b"])

		try sandbox.succeed("delete", sandbox.domain)
		#expect(!FileManager.default.fileExists(atPath: sandbox.fileURL.path))
		#expect(try sandbox.succeed("domains").isEmpty)
	}

	@Test("rename moves a value to a new key")
	func rename() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "old", "-array", "x", "y")
		try sandbox.succeed("write", sandbox.domain, "other", "-int", "1")

		try sandbox.succeed("rename", sandbox.domain, "old", "new")

		let contents = try sandbox.fileContents()
		#expect(contents["old"] == nil)
		#expect(contents["new"] as? [String] == ["x", "y"])
		#expect(contents["other"] as? Int == 1)
	}

	@Test("find matches domain names, keys and string values, ignoring case")
	func find() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", "com.example.first", "greeting", "-string", "Hello Penguin")
		try sandbox.succeed("write", "com.example.first", "count", "-int", "3")
		try sandbox.succeed("write", "com.example.second", "tags", "-array", "cat", "PENGUIN")
		try sandbox.succeed("write", "com.example.second", "penguins", "-int", "2")
		try sandbox.succeed("write", "com.penguin.app", "x", "-int", "1")
		try sandbox.succeed("write", "com.example.third", "nothing", "-string", "here")

		let found = try #require(try sandbox.json(sandbox.succeed("find", "penguin", "--json")) as? [String: [String: Any]])
		#expect(found.keys.sorted() == ["com.example.first", "com.example.second", "com.penguin.app"])
		#expect(found["com.example.first"]?.keys.sorted() == ["greeting"])
		#expect(found["com.example.second"]?.keys.sorted() == ["penguins", "tags"])

		let text = try sandbox.succeed("find", "penguin")
		#expect(text.contains("Found 1 keys in domain 'com.example.first': {\n    greeting = \"Hello Penguin\";\n}"))
		#expect(text.contains("Found 2 keys in domain 'com.example.second'"))
		#expect(try sandbox.succeed("find", "walrus") == "No domain, key, nor value containing 'walrus'\n")
	}

	@Test("export and import round-trip every value exactly in binary, and through standard output and input")
	func exportImportBinary() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "when", "-date", "2026-11-22T08:30:00.125Z")
		try sandbox.succeed("write", sandbox.domain, "blob", "-data", "00ff")
		try sandbox.succeed("write", sandbox.domain, "nested", "-json", #"{"a":[1,{"b":false}]}"#)

		let exported = sandbox.folder.appendingPathComponent("export.plist").path
		try sandbox.succeed("export", sandbox.domain, exported, "--format", "binary")
		try sandbox.succeed("import", "copy.domain", exported)
		#expect(try sandbox.succeed("read", "copy.domain", "--json") == sandbox.succeed("read", sandbox.domain, "--json"))

		let piped = try sandbox.run("export", sandbox.domain, "-", "--format", "binary")
		#expect(piped.status == 0)
		try sandbox.succeed("import", "piped.domain", "-", input: piped.outputData)
		#expect(try sandbox.succeed("read", "piped.domain", "when") == "2026-11-22 08:30:00.125 +0000\n")
	}

	@Test("export writes XML by default; import accepts XML, old-style and JSON, replacing the domain")
	func exportImportText() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "name", "-string", "x")
		let xml = try sandbox.succeed("export", sandbox.domain, "-")
		#expect(xml.contains("<key>name</key>"))

		try sandbox.succeed("write", "target.domain", "stale", "-int", "1")
		try sandbox.succeed("import", "target.domain", "-", input: Data(xml.utf8))
		#expect(try sandbox.fileContents(of: "target.domain") as NSDictionary == ["name": "x"] as NSDictionary)

		try sandbox.succeed("import", "target.domain", "-", input: Data("{ a = (1, 2); }".utf8))
		#expect(try sandbox.fileContents(of: "target.domain") as NSDictionary == ["a": ["1", "2"]] as NSDictionary)

		try sandbox.succeed("import", "target.domain", "-", input: Data(#"{"level": 3, "on": true}"#.utf8))
		#expect(try sandbox.succeed("read-type", "target.domain", "on") == "Type is boolean\n")
		#expect(try sandbox.succeed("read", "target.domain", "level") == "3\n")
	}

	@Test("a domain named like a set-aside file is still a domain")
	func setAsideLookalike() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", "a.unreadable-1", "k", "-int", "1")
		#expect(try sandbox.succeed("domains") == "a.unreadable-1\n")
	}

	@Test("export writes into a FIFO and through a symbolic link instead of replacing them")
	func exportIntoSpecialFiles() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "k", "-string", "v")

		let target = sandbox.folder.appendingPathComponent("target.plist").path
		let link = sandbox.folder.appendingPathComponent("link.plist").path
		try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
		try sandbox.succeed("export", sandbox.domain, link)
		#expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
		#expect(sandbox.plist(at: target) == ["k": "v"] as NSDictionary)

		let fifo = sandbox.folder.appendingPathComponent("fifo").path
		#expect(mkfifo(fifo, 0o600) == 0)
		let received = Locked(Data())
		let reader = Thread {
			let data = FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile() ?? Data()
			received.withLock { $0 = data }
		}
		reader.start()
		try sandbox.succeed("export", sandbox.domain, fifo)
		#expect(waitUntil { !received.withLock { $0 }.isEmpty })
		#expect(String(decoding: received.withLock { $0 }, as: UTF8.self).contains("<key>k</key>"))
		var info = stat()
		#expect(stat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
	}

	@Test("import reads a path that is a pipe")
	func importFromPipePath() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("import", sandbox.domain, "/dev/stdin", input: Data(#"{"k": 1}"#.utf8))
		#expect(try sandbox.fileContents() as NSDictionary == ["k": 1] as NSDictionary)
	}

	private func waitUntil(_ condition: () -> Bool) -> Bool {
		let deadline = Date().addingTimeInterval(10)
		while Date() < deadline, !condition() {
			Thread.sleep(forTimeInterval: 0.01)
		}

		return condition()
	}
}
