import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

@Suite("Launch arguments")
struct LaunchArgumentTests {
	init() {
		// Keys on the standard suite attach its file: it must be the tests' folder, not ~/.config.
		_ = TestEnvironment.configHome
	}

	/// The helper's "NAME=VALUE" lines as a dictionary.
	private func readBack(_ arguments: [String]) throws -> [String: String] {
		let result = try HelperProcess.run(["read-arguments"] + arguments)
		#expect(result.status == 0)
		var values: [String: String] = [:]
		for line in result.lines {
			if let separator = line.firstIndex(of: "=") {
				values[String(line[..<separator])] = String(line[line.index(after: separator)...])
			}
		}

		return values
	}

	@Test("a child process launched with generated arguments reads every supported type")
	func everyTypeSurvivesTheLaunch() throws {
		var overrides = Defaults.LaunchArguments()
		for fixture in LaunchArgumentFixture.all {
			fixture.give(&overrides)
		}

		let read = try readBack(try overrides.encoded())
		for fixture in LaunchArgumentFixture.all {
			#expect(read[fixture.name] == fixture.expected, "\(fixture.name)")
		}
	}

	@Test("values typed by hand read as the key's type")
	func handTypedValues() throws {
		let read = try readBack(HandTypedArgument.all.flatMap(\.arguments))
		for argument in HandTypedArgument.all {
			#expect(read[argument.fixture.name] == argument.fixture.expected, "-\(argument.fixture.name) \(argument.text)")
		}
	}

	@Test("each value is encoded as the property-list element of its stored form")
	func encodedForm() throws {
		let number = Defaults.Key<Int>("number", default: 0)
		let text = Defaults.Key<String>("text", default: "")
		let homepage = Defaults.Key<URL?>("homepage")
		let window = Defaults.Key<FixtureWindow?>("window")
		let flags = Defaults.Key<[Bool]>("flags", default: [])

		var overrides = Defaults.LaunchArguments()
		overrides[number] = -5
		overrides[text] = "<a> & -b"
		overrides[homepage] = URL(string: "https://example.com/x?y")
		overrides[window] = FixtureWindow(width: 3, title: "t")
		overrides[flags] = [true, false]
		overrides[number] = -6

		#expect(try overrides.encoded() == [
			"-number", "<integer>-6</integer>",
			"-text", "<string>&lt;a&gt; &amp; -b</string>",
			"-homepage", #"<string>"https:\/\/example.com\/x?y"</string>"#,
			"-window", #"<string>{"title":"t","width":3}</string>"#,
			"-flags", "<array><true/><false/></array>",
		])
		#expect(overrides[number] == -6)
		#expect(overrides[window] == FixtureWindow(width: 3, title: "t"))
		#expect(overrides.keyNames == ["number", "text", "homepage", "window", "flags"])

		overrides[text] = nil
		overrides[homepage] = .some(nil)
		#expect(overrides.keyNames == ["number", "window", "flags"])
	}

	@Test("a value that cannot be stored is reported with its key, not encoded")
	func unencodableValue() {
		struct Point: Codable, Defaults.Serializable {
			var x: Double
		}

		let point = Defaults.Key<Point?>("point")
		var overrides = Defaults.LaunchArguments()
		overrides[point] = Point(x: .nan)
		#expect(throws: Defaults.LaunchArgumentError.self) { try overrides.encoded() }
		do {
			_ = try overrides.encoded()
		} catch {
			#expect(error.key == "point")
		}
	}

	@Test("while an argument overrides a key, reads return it; writes and reset change only the stored value")
	func argumentTakesPrecedence() throws {
		let suite = TestSuite()
		let name = suite.keyName()
		let result = try HelperProcess.run(["argument-rule", suite.name, name, "-\(name)", "<integer>5</integer>"])
		#expect(result.status == 0)
		#expect(result.lines == [
			"read 5 hasKey true",
			"observed 5 -> 5",
			"after write 5 stored 7",
			"observed 5 -> 5",
			"after reset 5 stored nothing hasKey true",
		])
	}
}
