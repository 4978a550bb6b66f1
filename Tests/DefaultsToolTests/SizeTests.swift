import Defaults
import Foundation
import Testing

@Suite("defaults size")
struct SizeTests {
	@Test("size lists the keys largest first, with the total and the file's size")
	func text() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "small", "-int", "1")
		try sandbox.succeed("write", sandbox.domain, "large", "-data", String(repeating: "ab", count: 500))
		try sandbox.succeed("write", sandbox.domain, "middle", "-array", "one", "two", "three")
		let fileSize = try #require(try? FileManager.default.attributesOfItem(atPath: sandbox.fileURL.path)[.size] as? Int)

		let lines = try sandbox.succeed("size", sandbox.domain).split(separator: "\n").map(String.init)
		#expect(lines.count == 4, "\(lines)")
		#expect(lines.prefix(3).map { $0.split(separator: " ").last.map(String.init) } == ["large", "middle", "small"])
		let bytes = lines.map { Int($0.split(separator: " ").first ?? "") ?? -1 }
		#expect(bytes[0] > 500 && bytes[0] > bytes[1] && bytes[1] > bytes[2])
		#expect(bytes[3] == fileSize, "the total is the file the library writes: \(lines)")
		#expect(lines[3].contains("in all (the file: \(fileSize) bytes, of the 67108864 a preferences file may hold)"), "\(lines[3])")
	}

	@Test("size --json gives the entries in order, the total, the file's size and the limit")
	func json() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "small", "-int", "1")
		try sandbox.succeed("write", sandbox.domain, "large", "-string", String(repeating: "x", count: 300))
		let fileSize = try #require(try? FileManager.default.attributesOfItem(atPath: sandbox.fileURL.path)[.size] as? Int)

		let document = try #require(try sandbox.json(sandbox.succeed("size", sandbox.domain, "--json")) as? [String: Any])
		let entries = try #require(document["entries"] as? [[String: Any]])
		#expect(entries.map { $0["key"] as? String } == ["large", "small"])
		let sizes = entries.compactMap { $0["bytes"] as? Int }
		#expect(sizes.count == 2 && sizes[0] > 300)
		#expect(document["domain"] as? String == sandbox.domain)
		#expect(document["total"] as? Int == fileSize)
		#expect(document["fileBytes"] as? Int == fileSize)
		#expect(document["limit"] as? Int == 64 * 1024 * 1024)
		#expect(sizes.reduce(0, +) < fileSize)
	}

	@Test("size of a file over 64 MiB gives its size and says the library will not read it, in one line, leaving the file as it is", arguments: [false, true])
	func fileOverTheLimit(json: Bool) throws {
		let sandbox = ToolSandbox()
		let size = FileLimits.maximumFileSize + 1
		try ToolSandbox.makeSparseFile(at: sandbox.fileURL, size: size)
		var before = stat()
		try #require(stat(sandbox.fileURL.path, &before) == 0)
		let json = json ? ["--json"] : []

		func expected(_ repair: String) -> String {
			"defaults: \(sandbox.fileURL.path) is \(size) bytes, more than the 64 MiB (67108864 bytes) a preferences file may have: the library will not "
				+ "read it, so no program sees its values, and neither does this command; it was left as it is ('\(repair)' moves it aside, keeping it, "
				+ "so the domain can start over)"
		}
		#expect(try sandbox.fail(["size", sandbox.domain] + json) == expected("defaults delete \(sandbox.domain)"))
		#expect(try sandbox.run(["size", sandbox.domain] + json).status == 1, "the domain cannot be measured: a failure, not a usage error")
		#expect(try sandbox.fail(["size", "--path", sandbox.fileURL.path] + json) == expected("defaults delete --path \(sandbox.fileURL.path)"))

		var after = stat()
		try #require(stat(sandbox.fileURL.path, &after) == 0)
		#expect(after.st_ino == before.st_ino && after.st_size == before.st_size && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec, "left as it is")
		#expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).filter { !$0.hasPrefix(".") } == [sandbox.fileURL.lastPathComponent])
	}

	@Test("size of a domain that does not exist fails with one line")
	func missing() throws {
		let sandbox = ToolSandbox()
		#expect(try sandbox.fail("size", "no.such.domain") == "defaults: domain 'no.such.domain' does not exist (see 'defaults domains')")
		#expect(try sandbox.run("size", "no.such.domain").status == 1)
		#expect(try sandbox.fail("size").contains("domain"))
	}
}
