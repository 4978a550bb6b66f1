import Foundation
import Testing

@Suite("defaults write and read")
struct WriteReadTests {
	struct Case: CustomTestStringConvertible, Sendable {
		let value: [String]
		let type: String
		let text: String
		let json: String

		var testDescription: String {
			value.joined(separator: " ")
		}
	}

	static let cases: [Case] = [
		Case(value: ["-string", "hello world"], type: "string", text: "hello world", json: #""hello world""#),
		Case(value: ["-string", "-5"], type: "string", text: "-5", json: #""-5""#),
		Case(value: ["-string", "line one\nline two"], type: "string", text: "line one\nline two", json: #""line one\nline two""#),
		Case(value: ["-int", "-42"], type: "integer", text: "-42", json: "-42"),
		Case(value: ["-integer", "18446744073709551615"], type: "integer", text: "18446744073709551615", json: "18446744073709551615"),
		Case(value: ["-float", "0.5"], type: "float", text: "0.5", json: "0.5"),
		// A whole float keeps its fraction, so it does not read as an integer.
		Case(value: ["-float", "2"], type: "float", text: "2.0", json: "2.0"),
		Case(value: ["-float", "-1e-3"], type: "float", text: "-0.001", json: "-0.001"),
		Case(value: ["-bool", "YES"], type: "boolean", text: "1", json: "true"),
		Case(value: ["-bool", "false"], type: "boolean", text: "0", json: "false"),
		Case(value: ["-date", "2026-11-22T08:30:00.25Z"], type: "date", text: "2026-11-22 08:30:00.250 +0000", json: #""2026-11-22T08:30:00.250Z""#),
		Case(value: ["-date", "2026-11-22 08:30:00 +0100"], type: "date", text: "2026-11-22 07:30:00 +0000", json: #""2026-11-22T07:30:00.000Z""#),
		Case(value: ["-date", "2026-11-22"], type: "date", text: "2026-11-22 00:00:00 +0000", json: #""2026-11-22T00:00:00.000Z""#),
		Case(value: ["-date", "2024-02-29T23:59:59Z"], type: "date", text: "2024-02-29 23:59:59 +0000", json: #""2024-02-29T23:59:59.000Z""#),
		Case(value: ["-data", "0a1b2c"], type: "data", text: "<0a1b2c>", json: #""Chss""#),
		Case(value: ["-data", "<0a1b 2c>"], type: "data", text: "<0a1b2c>", json: #""Chss""#),
		Case(value: ["-array", "a", "-int", "2", "-bool", "no", "-5"], type: "array", text: "(\n    a,\n    2,\n    0,\n    -5\n)", json: #"["a",2,false,"-5"]"#),
		Case(value: ["-array"], type: "array", text: "()", json: "[]"),
		Case(value: ["-dict", "w", "-int", "800", "title", "main window"], type: "dictionary", text: "{\n    title = \"main window\";\n    w = 800;\n}", json: #"{"title":"main window","w":800}"#),
		Case(value: ["-json", #"{"a":[1,2.5,true,"x"],"b":{}}"#], type: "dictionary", text: "{\n    a = (\n        1,\n        2.5,\n        1,\n        x\n    );\n    b = {};\n}", json: #"{"a":[1,2.5,true,"x"],"b":{}}"#),
		Case(value: ["-json", "7"], type: "integer", text: "7", json: "7"),
		Case(value: ["plain"], type: "string", text: "plain", json: #""plain""#),
		Case(value: ["(a, \"b c\")"], type: "array", text: "(\n    a,\n    \"b c\"\n)", json: #"["a","b c"]"#),
		Case(value: ["{k = v;}"], type: "dictionary", text: "{\n    k = v;\n}", json: #"{"k":"v"}"#),
		Case(value: ["<00ff>"], type: "data", text: "<00ff>", json: #""AP8=""#),
		// Words that start with '-' where only a value can stand.
		Case(value: ["-5"], type: "string", text: "-5", json: #""-5""#),
		Case(value: ["-0.5"], type: "string", text: "-0.5", json: #""-0.5""#),
		Case(value: ["-string", "--help"], type: "string", text: "--help", json: #""--help""#),
		Case(value: ["-string", "-g"], type: "string", text: "-g", json: #""-g""#),
		Case(value: ["-float", "-2.5"], type: "float", text: "-2.5", json: "-2.5"),
		Case(value: ["-array", "-7", "-string", "-h"], type: "array", text: "(\n    -7,\n    -h\n)", json: #"["-7","-h"]"#),
		Case(value: ["-dict", "-k", "v"], type: "dictionary", text: "{\n    -k = v;\n}", json: #"{"-k":"v"}"#),
	]

	@Test("every value form round-trips with its type", arguments: cases)
	func roundTrip(_ testCase: Case) throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed(["write", sandbox.domain, "key"] + testCase.value)

		#expect(try sandbox.succeed("read-type", sandbox.domain, "key") == "Type is \(testCase.type)\n")
		#expect(try sandbox.succeed("read", sandbox.domain, "key") == testCase.text + "\n")
		let json = try sandbox.succeed("read", sandbox.domain, "key", "--json")
		#expect(try sandbox.json(json) as? NSObject == sandbox.json(testCase.json) as? NSObject)
	}

	@Test("a domain prints as a sorted property list, and as JSON")
	func wholeDomain() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "name", "-string", "Ada Lovelace")
		try sandbox.succeed("write", sandbox.domain, "count", "-int", "8")
		try sandbox.succeed("write", sandbox.domain, "tags", "-array", "swift", "linux")

		#expect(try sandbox.succeed("read", sandbox.domain) == """
			{
			    count = 8;
			    name = "Ada Lovelace";
			    tags = (
			        swift,
			        linux
			    );
			}

			""")
		let json = try #require(try sandbox.json(sandbox.succeed("read", sandbox.domain, "--json")) as? [String: Any])
		#expect(json["count"] as? Int == 8)
		#expect(json["name"] as? String == "Ada Lovelace")
		#expect(json["tags"] as? [String] == ["swift", "linux"])
	}

	@Test("read without a domain prints every domain")
	func everyDomain() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "a", "-int", "1")
		try sandbox.succeed("write", "other.domain", "b", "-int", "2")

		let json = try #require(try sandbox.json(sandbox.succeed("read", "--json")) as? [String: [String: Int]])
		#expect(json == [sandbox.domain: ["a": 1], "other.domain": ["b": 2]])
	}

	@Test("the file is a binary property list Foundation reads, private to the user")
	func fileFormat() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "when", "-date", "2026-11-22T08:30:00.125Z")
		try sandbox.succeed("write", sandbox.domain, "ratio", "-float", "0.25")

		let data = try Data(contentsOf: sandbox.fileURL)
		#expect(data.starts(with: Array("bplist00".utf8)))
		let contents = try sandbox.fileContents()
		#expect(contents["when"] as? Date == Date(timeIntervalSince1970: 1_795_336_200.125))
		#expect(contents["ratio"] as? Double == 0.25)
		let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.fileURL.path)
		#expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
	}

	@Test("writing a key keeps the others")
	func writeKeepsOtherKeys() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "a", "-int", "1")
		try sandbox.succeed("write", sandbox.domain, "b", "-int", "2")
		try sandbox.succeed("write", sandbox.domain, "a", "-string", "replaced")

		let contents = try sandbox.fileContents()
		#expect(contents["a"] as? String == "replaced")
		#expect(contents["b"] as? Int == 2)
	}

	@Test("-array-add appends and -dict-add merges, creating the value when missing")
	func addToContainers() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "tags", "-array-add", "one")
		try sandbox.succeed("write", sandbox.domain, "tags", "-array-add", "two", "-int", "3")
		try sandbox.succeed("write", sandbox.domain, "size", "-dict-add", "w", "-int", "1", "h", "-int", "2")
		try sandbox.succeed("write", sandbox.domain, "size", "-dict-add", "w", "-int", "10")

		#expect(try sandbox.json(sandbox.succeed("read", sandbox.domain, "tags", "--json")) as? NSArray == ["one", "two", 3] as NSArray)
		#expect(try sandbox.json(sandbox.succeed("read", sandbox.domain, "size", "--json")) as? [String: Int] == ["w": 10, "h": 2])
	}

	@Test("--path reads and writes an explicit file")
	func explicitPath() throws {
		let sandbox = ToolSandbox()
		let folder = sandbox.folder.appendingPathComponent("elsewhere")
		try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
		let file = folder.appendingPathComponent("custom.plist").path
		try sandbox.succeed("write", "--path", file, "color", "-string", "blue")

		#expect(try sandbox.succeed("read", "--path", file, "color") == "blue\n")
		#expect(try sandbox.succeed("read-type", "--path", file, "color") == "Type is string\n")
		#expect(FileManager.default.fileExists(atPath: file))
		#expect(try sandbox.succeed("domains").isEmpty)
	}

	@Test("values that look like options are stored as values")
	func dashValues() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "help", "-string", "-h")
		try sandbox.succeed("write", sandbox.domain, "path", "-string", "--path")
		try sandbox.succeed("write", sandbox.domain, "height", "-array", "-string", "-height", "-string", "--help")
		try sandbox.succeed("write", "--", sandbox.domain, "plain", "value")

		let contents = try sandbox.fileContents()
		#expect(contents["help"] as? String == "-h")
		#expect(contents["path"] as? String == "--path")
		#expect(contents["height"] as? [String] == ["-height", "--help"])
		#expect(contents["plain"] as? String == "value")
	}

	@Test("what read prints can be written back as the same value")
	func textRoundTrip() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "list", "-array", "a+b", "//x", "/*y", "plain", "two words", "quote\"d", "")
		try sandbox.succeed("write", sandbox.domain, "map", "-dict", "k+1", "v//w", "plain", "x")
		for key in ["list", "map"] {
			let text = try sandbox.succeed("read", sandbox.domain, key).trimmingCharacters(in: .newlines)
			try sandbox.succeed("write", sandbox.domain, "\(key)Copy", text)
			#expect(try sandbox.succeed("read", sandbox.domain, "\(key)Copy", "--json") == sandbox.succeed("read", sandbox.domain, key, "--json"))
		}
	}

	@Test("JSON keeps reals as reals and prints empty containers compactly")
	func jsonNumbers() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "real", "-json", "1.0")
		try sandbox.succeed("write", sandbox.domain, "integer", "-json", "1")
		try sandbox.succeed("write", sandbox.domain, "float", "-float", "3")
		try sandbox.succeed("write", sandbox.domain, "empty", "-array")
		try sandbox.succeed("write", sandbox.domain, "nothing", "-dict")
		#expect(try sandbox.succeed("read-type", sandbox.domain, "real") == "Type is float\n")
		#expect(try sandbox.succeed("read-type", sandbox.domain, "integer") == "Type is integer\n")
		#expect(try sandbox.succeed("read", sandbox.domain, "--json") == """
			{
			  "empty": [],
			  "float": 3.0,
			  "integer": 1,
			  "nothing": {},
			  "real": 1.0
			}

			""")

		let exported = try sandbox.succeed("read", sandbox.domain, "--json")
		try sandbox.succeed("import", "copy.domain", "-", input: Data(exported.utf8))
		#expect(try sandbox.succeed("read-type", "copy.domain", "real") == "Type is float\n")
	}

	@Test("text and JSON show the same milliseconds")
	func dateMilliseconds() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "when", "-date", "2026-11-22 08:30:00.123 +0000")
		#expect(try sandbox.succeed("read", sandbox.domain, "when") == "2026-11-22 08:30:00.123 +0000\n")
		#expect(try sandbox.succeed("read", sandbox.domain, "when", "--json") == "\"2026-11-22T08:30:00.123Z\"\n")
	}

	@Test("--path edits the target of a symbolic link and keeps the file's permissions")
	func explicitPathThroughLink() throws {
		let sandbox = ToolSandbox()
		let target = sandbox.folder.appendingPathComponent("real.plist").path
		let link = sandbox.folder.appendingPathComponent("link.plist").path
		try sandbox.succeed("write", "--path", target, "a", "-int", "1")
		try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target)
		try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)

		try sandbox.succeed("write", "--path", link, "b", "-int", "2")

		#expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
		let contents = try #require(sandbox.plist(at: target))
		#expect(contents == ["a": 1, "b": 2] as NSDictionary)
		#expect((try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? NSNumber)?.intValue == 0o644)
	}
}
