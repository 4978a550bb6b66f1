#if os(Linux)
import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// Items another Secret Service client wrote under this library's attributes. Part of the client's suite, so they run one at a time with its tests, which lock the keyring and stop the daemon.
extension SecretServiceClientTests {
	@Test("SecretService: text that secret-tool stored with a Codable key's attributes reads as the default with one diagnostic that does not show it; the typed API throws .failed; a write replaces it", .enabled(if: SecretServiceTestDaemon.isAvailable))
	func secretServiceUndecodableFromSecretTool() throws {
		let name = SecretServiceTestDaemon.uniqueSuite()
		let client = SecretServiceClient(applicationName: "DefaultsTests")
		defer { _ = try? client.clear(suite: name, key: "login") }
		let stored = try ChildProcess.run(
			path: "/usr/bin/secret-tool",
			["store", "--label=written by hand", "xdg:schema", client.schemaName, "suite", name, "key", "login"],
			environment: ProcessInfo.processInfo.environment,
			input: Data("SENTINEL{not json".utf8)
		)
		try #require(stored.status == 0, "secret-tool store: \(stored.errorOutput)")
		try #require(try client.lookupString(suite: name, key: "login") == "SENTINEL{not json")

		let login = Defaults.Key<Login?>("login", suite: try #require(UserDefaults(suiteName: name)), secret: true)
		expectUndecodable(login)
		Defaults[login] = Login(user: "ada", password: "lovelace")
		#expect(try login.readSecret() == Login(user: "ada", password: "lovelace"))
	}
}
#endif
