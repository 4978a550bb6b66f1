#if Configuration
import Configuration
import Defaults
import DefaultsConfiguration
import DefaultsTestSupport
import Foundation
import Testing

/// The order the README and the article document: environment, then the suite, then the reader's default.
@Suite("DefaultsProvider in a provider hierarchy")
struct HierarchyTests {
	@Test func environmentThenSuiteThenDefault() throws {
		let suite = TestSuite()
		suite.defaults.setRawAndSynchronize(["timeout": 20, "retries": 3], forKey: "http")
		let reader = ConfigReader(providers: [
			EnvironmentVariablesProvider(environmentVariables: ["HTTP_TIMEOUT": "5"]),
			DefaultsProvider(suite: suite.defaults),
		])

		#expect(reader.int(forKey: "http.timeout", default: 60) == 5, "the environment wins")
		#expect(reader.int(forKey: "http.retries", default: 1) == 3, "then the suite")
		#expect(reader.int(forKey: "http.backoff", default: 2) == 2, "then the default")
	}

	@Test func anInMemoryOverrideSitsAboveTheSuite() throws {
		let suite = TestSuite()
		suite.defaults.setRawAndSynchronize(20, forKey: "http_timeout")
		suite.defaults.setRawAndSynchronize(4, forKey: "http_retries")
		let reader = ConfigReader(providers: [
			InMemoryProvider(values: ["http.timeout": 1]),
			DefaultsProvider(suite: suite.defaults, keyMapping: .flat()),
		])

		#expect(reader.int(forKey: "http.timeout") == 1)
		#expect(reader.int(forKey: "http.retries") == 4)
	}

	/// A suite value written while a reader watches overrides nothing above it, and is seen where nothing is above it.
	@Test func aLiveChangeIsSeenOnlyWhereTheEnvironmentIsSilent() async throws {
		let suite = TestSuite()
		let http = Defaults.Key<[String: Int]>("http", default: [:], suite: suite.defaults)
		let reader = ConfigReader(providers: [
			EnvironmentVariablesProvider(environmentVariables: ["HTTP_TIMEOUT": "5"]),
			DefaultsProvider(suite: suite.defaults),
		])

		let seen = try await withDeadline {
			try await reader.watchInt(forKey: "http.retries", default: 1) { updates in
				var seen: [Int] = []
				for await retries in updates {
					seen.append(retries)
					if seen.count == 1 {
						Defaults[http] = ["timeout": 30, "retries": 6]
					} else {
						return seen
					}
				}

				return seen
			}
		}

		#expect(seen == [1, 6])
		#expect(reader.int(forKey: "http.timeout") == 5)
	}
}
#endif
