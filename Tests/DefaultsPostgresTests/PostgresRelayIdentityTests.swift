#if Postgres
@testable import DefaultsPostgres
import Foundation
import PostgresNIO
import Testing
@testable import Defaults

/// The relay folder's key: the whole connection identity, hashed (pure: no server).
@Suite("PostgreSQL store: the relay's connection identity")
struct PostgresRelayIdentityTests {
	private func configuration(password: String? = "secret-39", tls: PostgresClient.Configuration.TLS = .disable, user: String = "app") -> PostgresClient.Configuration {
		PostgresClient.Configuration(host: "db.internal", port: 5432, username: user, password: password, database: "settings", tls: tls)
	}

	private func key(_ configuration: PostgresClient.Configuration, namespace: String = "web") -> String {
		HostRelayLocation.key(configuration: configuration, options: Defaults.PostgresRemoteStore.Options(), namespace: namespace)
	}

	@Test("SHA-256 gives the standard's digests")
	func sha256() {
		func hex(_ text: String) -> String {
			SHA256.hash(Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
		}

		#expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
		#expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
		#expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
		#expect(hex(String(repeating: "a", count: 1_000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
	}

	@Test("stores share a relay only with the same password, role, TLS mode and TLS settings")
	func everyFieldSeparates() {
		let base = key(configuration())
		#expect(key(configuration()) == base, "the same identity, the same relay")
		#expect(key(configuration(password: "rotated")) != base, "a stale or a new password")
		#expect(key(configuration(password: nil)) != base)
		#expect(key(configuration(user: "ops")) != base)
		#expect(key(configuration(tls: .require(.makeClientConfiguration()))) != base, "a process requiring TLS never shares a plaintext connection")
		#expect(key(configuration(tls: .prefer(.makeClientConfiguration()))) != key(configuration(tls: .require(.makeClientConfiguration()))))
		#expect(key(configuration(tls: .require(.makeClientConfiguration()))) == key(configuration(tls: .require(.makeClientConfiguration()))), "stable for equal TLS settings")
		var unverified = TLSConfiguration.makeClientConfiguration()
		unverified.certificateVerification = .none
		#expect(key(configuration(tls: .require(unverified))) != key(configuration(tls: .require(.makeClientConfiguration()))), "nor without the verification another insists on")
		var named = configuration(tls: .require(.makeClientConfiguration()))
		named.options.tlsServerName = "other.internal"
		#expect(key(named) != key(configuration(tls: .require(.makeClientConfiguration()))))
		#expect(key(configuration(), namespace: "api") != base)
	}

	@Test("the folder's name holds a hash of 128 bits, never the password")
	func folderNameHidesThePassword() throws {
		let folder = try #require(try HostRelayLocation.folder(for: .through(folder: URL(fileURLWithPath: "/tmp/relays")), configuration: configuration(), options: .init(), namespace: "web"))
		#expect(folder.lastPathComponent.wholeMatch(of: /postgres-[0-9a-f]{32}/) != nil, "\(folder.lastPathComponent)")
		#expect(!folder.path.contains("secret-39"))
	}
}
#endif
