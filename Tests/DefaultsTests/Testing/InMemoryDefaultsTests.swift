import DefaultsTesting
import DefaultsTestSupport
import Foundation
import Observation
import Testing
@testable import Defaults

@Suite("In-memory suite")
struct InMemoryDefaultsTests {
	@Test func keysReadWriteResetAndRemoveAll() {
		let suite = InMemoryDefaults()
		let count = Defaults.Key<Int>("count", default: 1, suite: suite)
		let window = Defaults.Key<[String: Int]>("window", default: [:], suite: suite)

		#expect(Defaults[count] == 1)
		Defaults[count] += 1
		suite[window] = ["width": 800]
		#expect(Defaults[count] == 2)
		#expect(suite[window] == ["width": 800])
		#expect(suite.integer(forKey: "count") == 2, "raw UserDefaults accessors see the same values")

		Defaults.reset(count)
		#expect(Defaults[count] == 1)
		suite.removeAll()
		#expect(suite[window] == [:])
	}

	@Test func instancesAreIsolated() {
		let first = InMemoryDefaults()
		let second = InMemoryDefaults()
		let inFirst = Defaults.Key<Int>("shared", default: 1, suite: first)
		let inSecond = Defaults.Key<Int>("shared", default: 2, suite: second)

		first[inFirst] = 10
		#expect(second[inSecond] == 2, "neither the value nor the registered default leaks")
		#expect(second.object(forKey: "shared") as? Int == 2)
	}

	@Test func neverTouchesDisk() throws {
		let suite = InMemoryDefaults()
		let key = Defaults.Key<String>("name", default: "", suite: suite)
		let reported = diagnostics {
			suite[key] = "in memory"
			try? Defaults.flush(suite: suite)
		}

		#expect(reported.isEmpty)
		let files = try FileManager.default.contentsOfDirectory(atPath: TestEnvironment.configHome.path)
		#expect(!files.contains { $0.contains("in-memory") })
	}

	@Test func seededValues() {
		let suite = InMemoryDefaults(["launches": 3, "name": "ada"])
		#expect(suite[Defaults.Key<Int>("launches", default: 0, suite: suite)] == 3)
		#expect(suite.string(forKey: "name") == "ada")
	}

	@Test func observationAndUpdatesAreIsolated() async {
		let first = InMemoryDefaults()
		let second = InMemoryDefaults()
		let inFirst = Defaults.Key<Int>("value", default: 0, suite: first)
		let inSecond = Defaults.Key<Int>("value", default: 0, suite: second)
		let seen = Recorder<Int>()
		let observation = Defaults.observe(inFirst, options: []) { seen.append($0.newValue) }

		second[inSecond] = 5
		first[inFirst] = 7
		#expect(seen.values == [7])
		observation.invalidate()

		var updates = Defaults.updates(inFirst, initial: false).makeAsyncIterator()
		async let next = updates.next()
		try? await Task.sleep(for: .milliseconds(50))
		first[inFirst] = 9
		#expect(await next == 9)
	}

	@Test func defaultPropertyWrapper() {
		final class Model {
			@Default var count: Int

			init(suite: UserDefaults) {
				_count = Default(Defaults.Key<Int>("count", default: 4, suite: suite))
			}
		}

		let suite = InMemoryDefaults()
		let model = Model(suite: suite)
		#expect(model.count == 4)
		model.count = 5
		#expect(suite.integer(forKey: "count") == 5)
		model.$count.reset()
		#expect(model.count == 4)
	}

	@Test func hasKeyIgnoresRegisteredDefaults() {
		let suite = InMemoryDefaults()
		let key = Defaults.Key<Int>("count", default: 1, suite: suite)
		#expect(!suite.hasKey(key))
		suite[key] = 1
		#expect(suite.hasKey(key), "a stored value equal to the default is still a stored value")
		Defaults.reset(key)
		#expect(!Defaults.hasKey(key))
	}

	@Test func nonPropertyListValuesAreReportedNotStored() {
		let suite = InMemoryDefaults()
		let reported = diagnostics {
			suite.set(NSObject(), forKey: "object")
		}

		#expect(suite.object(forKey: "object") == nil)
		#expect(reported.map(\.kind) == [.unencodableValue])
	}
}

@Suite("hasKey")
struct HasKeyTests {
	@Test func fileBackedSuite() throws {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 1, suite: suite.defaults)
		let dynamic = Defaults.Key<Int>(suite.keyName(), suite: suite.defaults) { 2 }

		#expect(!Defaults.hasKey(key))
		#expect(!Defaults.hasKey(dynamic))
		Defaults[key] = 1
		Defaults[dynamic] = 2
		#expect(Defaults.hasKey(key))
		#expect(suite.defaults.hasKey(dynamic))

		// Raw changes, synchronized, are seen like another process's; the library's own are written first.
		try Defaults.flush(suite: suite.defaults)
		suite.defaults.removeRawAndSynchronize(forKey: key.name)
		#expect(!Defaults.hasKey(key), "raw removal is seen")
		suite.defaults.setRawAndSynchronize(3, forKey: key.name)
		#expect(Defaults.hasKey(key), "raw writes are seen")
		Defaults.reset(key)
		#expect(!Defaults.hasKey(key))
	}

	@Test func standardSuite() {
		// The standard suite's file must go to the tests' folder, whichever test touches it first.
		_ = TestEnvironment.configHome
		let key = Defaults.Key<String?>("hasKey_\(UUID().uuidString.prefix(8))")
		#expect(!Defaults.hasKey(key))
		Defaults[key] = "x"
		#expect(Defaults.hasKey(key))
		Defaults[key] = nil
		#expect(!Defaults.hasKey(key))
	}
}
