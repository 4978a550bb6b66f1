#if Configuration
import DefaultsTestSupport
import Configuration
import Defaults
import DefaultsConfiguration
import Foundation
import Testing

/// The `defaults` commands the article and the README show, run as another process, read as they say.
@Suite("DefaultsProvider reads what the documented commands write")
struct DocumentedCommandsTests {
	@Test func nestedCommands() async throws {
		let suite = TestSuite()
		let config = ConfigReader(providers: [
			EnvironmentVariablesProvider(environmentVariables: [:]),
			DefaultsProvider(suite: suite.defaults),
		])

		try suite.runTool("write", suite.name, "http", "-dict-add", "timeout", "-int", "10")
		try suite.runTool("write", suite.name, "http", "-dict-add", "origins", "-json", #"["https://a.example", "https://b.example"]"#)
		try suite.runTool("write", suite.name, "limits", "-json", #"{"requests": 200}"#)
		#expect(await eventually { config.int(forKey: "limits.requests") == 200 })
		#expect(config.double(forKey: "http.timeout", default: 30) == 10)
		#expect(config.stringArray(forKey: "http.origins", default: []) == ["https://a.example", "https://b.example"])

		// A number written without a type flag is a string: a mismatch, so the default.
		try suite.runTool("write", suite.name, "http", "-dict-add", "timeout", "15")
		#expect(await eventually { config.string(forKey: "http.timeout") == "15" })
		#expect(config.double(forKey: "http.timeout", default: 30) == 30)

		try suite.runTool("delete", suite.name, "limits")
		#expect(await eventually { config.int(forKey: "limits.requests", default: 100) == 100 })
	}

	@Test func flatCommand() async throws {
		let suite = TestSuite()
		let config = ConfigReader(providers: [DefaultsProvider(suite: suite.defaults, keyMapping: .flat(separator: "_"))])
		try suite.runTool("write", suite.name, "http_timeout", "-int", "10")
		#expect(await eventually { config.double(forKey: "http.timeout", default: 30) == 10 })
	}
}
#endif
