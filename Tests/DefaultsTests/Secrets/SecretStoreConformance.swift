import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// What every ``SecretStore`` must do (its doc comment lists it): run against each writable store.
func checkSecretStoreConformance(_ store: any SecretStore, suite: String = "defaults-secret-conformance-\(UUID().uuidString.prefix(8))") throws {
	let token = SecretItem(suite: suite, key: "token")
	let sameKeyOtherSuite = SecretItem(suite: suite + "-other", key: "token")
	let binary = SecretItem(suite: suite, key: "binary")
	defer {
		for item in [token, sameKeyOtherSuite, binary] {
			try? store.remove(item)
		}
	}

	#expect(try store.secret(for: token) == nil, "no value is nil, not an error")
	try store.store(SecretBytes(text: "first"), for: token)
	#expect(try store.secret(for: token)?.data == Data("first".utf8))
	try store.store(SecretBytes(text: "second"), for: token)
	#expect(try store.secret(for: token)?.data == Data("second".utf8), "a store replaces")

	try store.store(SecretBytes(text: "elsewhere"), for: sameKeyOtherSuite)
	#expect(try store.secret(for: token)?.data == Data("second".utf8), "items are told apart by suite and key")

	let bytes = SecretEncoding.bytes(of: .dictionary(["n": .integer(1), "d": .data(Data([0, 255]))]))
	try store.store(bytes, for: binary)
	#expect(try store.secret(for: binary).flatMap { SecretEncoding.value(of: $0.data) } == .dictionary(["n": .integer(1), "d": .data(Data([0, 255]))]))

	try store.remove(token)
	#expect(try store.secret(for: token) == nil)
	try store.remove(token)
	#expect(try store.secret(for: sameKeyOtherSuite)?.data == Data("elsewhere".utf8))
}

@Suite("Secret stores: the conformance check")
struct SecretStoreConformanceTests {
	@Test("the in-memory store")
	func inMemory() throws {
		try checkSecretStoreConformance(InMemorySecretStore())
	}

	@Test("a credentials folder without the key's credential, in front of a store")
	func credentialFirst() throws {
		try checkSecretStoreConformance(CredentialFirstSecretStore(credentials: CredentialSecretStore(environment: [:]), desktop: InMemorySecretStore()))
	}
}

#if os(Linux)
extension SecretServiceClientTests {
	@Test("SecretService: the Secret Service store passes the secret store conformance check", .enabled(if: SecretServiceTestDaemon.isAvailable))
	func secretServiceStoreConformance() throws {
		try checkSecretStoreConformance(SecretServiceStore(client: SecretServiceClient(applicationName: "DefaultsTests")))
	}
}
#endif
