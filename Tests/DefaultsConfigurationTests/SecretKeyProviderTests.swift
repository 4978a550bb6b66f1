#if Configuration
import Configuration
@testable import Defaults
import DefaultsConfiguration
import DefaultsTestSupport
import Foundation
import Testing

@Suite("DefaultsProvider and secret keys")
struct SecretKeyProviderTests {
	@Test("a secret key's value is never provided, in a value, a snapshot or the reader's access log")
	func secretKeysAreNotProvided() throws {
		let sentinel = "SENTINEL-\(UUID().uuidString)"
		let suite = TestSuite()
		Suite.installSecretStore(InMemorySecretStore(), for: suite.defaults)
		let token = Defaults.Key<String?>("apiToken", suite: suite.defaults, secret: true)
		let user = Defaults.Key<String>("user", default: "", suite: suite.defaults)
		Defaults[token] = sentinel
		Defaults[user] = "ada"
		#expect(Defaults[token] == sentinel)

		let provider = DefaultsProvider(suite: suite.defaults, keyMapping: .flat())
		#expect(try provider.value(forKey: ["apiToken"], type: .string).value == nil)
		#expect(try provider.snapshot().value(forKey: ["apiToken"], type: .string).value == nil)
		#expect(try provider.value(forKey: ["user"], type: .string).value?.content == .string("ada"))
		let reader = ConfigReader(providers: [provider])
		#expect(reader.string(forKey: "apiToken") == nil)
		#expect(!String(describing: provider.snapshot()).contains(sentinel))
	}
}
#endif
