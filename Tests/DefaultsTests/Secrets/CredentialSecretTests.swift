import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// A private `$CREDENTIALS_DIRECTORY`, as systemd makes one for a service, removed when the test ends.
final class CredentialsFolder: @unchecked Sendable {
	let url: URL

	init(_ credentials: [String: String]) throws {
		url = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-credentials-\(UUID().uuidString)", isDirectory: true)
		try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
		for (name, value) in credentials {
			try Data(value.utf8).write(to: url.appendingPathComponent(name))
		}
	}

	deinit {
		try? FileManager.default.removeItem(at: url)
	}

	var environment: [String: String] {
		["CREDENTIALS_DIRECTORY": url.path]
	}

	/// The store a service with these credentials uses: a key's credential, else `desktop`'s secret.
	func store(desktop: any SecretStore) -> CredentialFirstSecretStore {
		CredentialFirstSecretStore(credentials: CredentialSecretStore(environment: environment), desktop: desktop)
	}

	/// A suite of its own whose secret keys read these credentials first, then `desktop`: a service's suite, through the normal API.
	func suite(desktop: any SecretStore = InMemorySecretStore(), _ label: String = #function) -> TestSuite {
		let suite = TestSuite(label)
		Suite.installSecretStore(store(desktop: desktop), for: suite.defaults)
		return suite
	}
}

@Suite("Secret keys from systemd credentials")
struct CredentialSecretTests {
	@Test("a credential is read from $CREDENTIALS_DIRECTORY/<key>, wins over the desktop store, and refuses writes and removals as read-only")
	func store() throws {
		let folder = try CredentialsFolder(["apiToken": "from-the-unit\n"])
		let desktop = InMemorySecretStore()
		let store = folder.store(desktop: desktop)
		let token = SecretItem(suite: "service", key: "apiToken")
		let other = SecretItem(suite: "service", key: "other")
		try desktop.store(SecretBytes(text: "from-the-keyring"), for: token)
		#expect(try store.secret(for: token)?.data == Data("from-the-unit\n".utf8))
		let path = folder.url.appendingPathComponent("apiToken").path
		#expect(throws: Defaults.SecretError.readOnly(credential: path)) { try store.store(SecretBytes(text: "x"), for: token) }
		#expect(throws: Defaults.SecretError.readOnly(credential: path)) { try store.remove(token) }
		#expect(try desktop.secret(for: token)?.data == Data("from-the-keyring".utf8))

		// A key with no credential is the desktop store's.
		#expect(try store.secret(for: other) == nil)
		try store.store(SecretBytes(text: "kept"), for: other)
		#expect(try store.secret(for: other)?.data == Data("kept".utf8))
	}

	@Test("without $CREDENTIALS_DIRECTORY, or for a name that is no file's name, there is no credential")
	func noCredentials() throws {
		let none = CredentialSecretStore(environment: [:])
		#expect(try none.secret(for: SecretItem(suite: "s", key: "apiToken")) == nil)
		#expect(!none.provides(SecretItem(suite: "s", key: "apiToken")))
		let relative = CredentialSecretStore(environment: ["CREDENTIALS_DIRECTORY": "relative/folder"])
		#expect(relative.folder == nil)
		let folder = try CredentialsFolder([:])
		let store = CredentialSecretStore(environment: folder.environment)
		for name in ["..", ".", "a/b", ""] {
			#expect(store.file(for: SecretItem(suite: "s", key: name)) == nil)
		}
	}

	@Test("through the normal API: a credential reads as the key's value; a write is refused with a typed error and one diagnostic, and the credential still reads")
	func throughTheAPI() throws {
		let folder = try CredentialsFolder(["serviceToken": "t0k3n", "port": "8443"])
		let suite = folder.suite()
		let token = Defaults.Key<String?>("serviceToken", suite: suite.defaults, secret: true)
		let port = Defaults.Key<Int>("port", default: 0, suite: suite.defaults, secret: true)
		#expect(Defaults[token] == "t0k3n")
		#expect(Defaults[port] == 8443)
		let (_, diagnostics) = DiagnosticReporter.capturing {
			Defaults[token] = "changed"
			token.reset()
		}
		#expect(diagnostics.count == 1)
		#expect(diagnostics.first?.kind == .secretUnavailable)
		#expect(diagnostics.first?.key == "serviceToken")
		#expect(diagnostics.first?.message.contains("read-only") == true)
		#expect(Defaults[token] == "t0k3n")
		let path = folder.url.appendingPathComponent("serviceToken").path
		#expect(throws: Defaults.SecretError.readOnly(credential: path)) { try token.writeSecret("again") }
		#expect(throws: Defaults.SecretError.readOnly(credential: path)) { try token.removeSecret() }
		#expect(try token.readSecret() == "t0k3n")
	}

	@Test("a service process with credentials and no keyring: the credential reads, a write is refused as read-only, and a key without one reads nil with an 'unavailable' diagnostic in milliseconds")
	func serviceProcess() throws {
		let folder = try CredentialsFolder(["serviceToken": "from-systemd"])
		var environment = TestEnvironment.environment
		environment["CREDENTIALS_DIRECTORY"] = folder.url.path
		environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/defaults-credential-tests/bus"
		let suite = TestSuite()

		let read = try HelperProcess.run(["secret-read", suite.name, "serviceToken"], environment: environment)
		#expect(read.status == 0)
		#expect(read.lines.contains("value from-systemd"))
		#expect(!read.lines.contains { $0.hasPrefix("diagnostic") })

		let write = try HelperProcess.run(["secret-write", suite.name, "serviceToken", "changed"], environment: environment)
		#expect(write.lines.contains { $0.hasPrefix("error readOnly") })
		#expect(write.lines.filter { $0.hasPrefix("diagnostic secretUnavailable") }.count == 1)

		let missing = try HelperProcess.run(["secret-read", suite.name, "notACredential"], environment: environment)
		#expect(missing.lines.contains("none"))
		let diagnostics = missing.lines.filter { $0.hasPrefix("diagnostic") }
		#expect(diagnostics.count == 1)
		#expect(diagnostics.first?.contains("notACredential") == true)
		#expect(diagnostics.first?.contains("no secret store is available") == true)
		let elapsed = try #require(missing.lines.last { $0.hasPrefix("elapsed ") }.flatMap { Double($0.dropFirst("elapsed ".count)) })
		#expect(elapsed < 500)
	}
}
