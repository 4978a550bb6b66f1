import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// The global domain (`.GlobalPreferences.plist`, what `defaults write -g` writes) under every suite's own values.
@Suite("The global domain", .serialized)
struct GlobalDomainTests {
	@Test func readsFallBackToItAboveRegisteredDefaultsAndHearItsChanges() throws {
		let suite = TestSuite()
		let name = suite.keyName("global")
		let key = Defaults.Key<String>(name, default: "registered", suite: suite.defaults)
		let heard = Recorder<String>()
		let observation = Defaults.observe(key, options: []) { heard.append($0.newValue) }
		defer { observation.invalidate() }
		let globalFile = TestEnvironment.configHome.appendingPathComponent(".GlobalPreferences.plist")
		defer {
			try? FileManager.default.removeItem(at: globalFile)
		}

		#expect(Defaults[key] == "registered")
		try writeAtomically(["global" + name: "other", name: "global"], to: globalFile)
		#expect(suite.wait(timeout: 5) { Defaults[key] == "global" }, "another process's `defaults write -g` is seen")
		#expect(!Defaults.hasKey(key), "a global value is not the suite's own")

		Defaults[key] = "stored"
		#expect(Defaults[key] == "stored")
		Defaults.reset(key)
		#expect(Defaults[key] == "global")

		try FileManager.default.removeItem(at: globalFile)
		#expect(suite.wait(timeout: 5) { Defaults[key] == "registered" })
		// The watcher's thread applies the change, then tells observers: a read can see it first.
		#expect(suite.wait(timeout: 5) { heard.values.count == 4 })
		#expect(heard.values == ["global", "stored", "global", "registered"])
	}

	@Test func priorObserversHearAPriorForAGlobalChange() throws {
		let suite = TestSuite()
		let name = suite.keyName("globalPrior")
		let key = Defaults.Key<String>(name, default: "registered", suite: suite.defaults)
		let heard = Recorder<String>()
		let observation = Defaults.observe(key, options: [.prior]) { change in
			heard.append("\(change.isPrior ? "prior" : "after"): \(change.oldValue) → \(change.newValue)")
		}
		defer { observation.invalidate() }
		let globalFile = TestEnvironment.configHome.appendingPathComponent(".GlobalPreferences.plist")
		defer {
			try? FileManager.default.removeItem(at: globalFile)
		}

		try writeAtomically([name: "global"], to: globalFile)
		#expect(suite.wait(timeout: 5) { heard.values.count == 2 })
		// Like another process's change to the suite's own file: the prior comes just before the change, both after the fact.
		#expect(heard.values == ["prior: registered → global", "after: registered → global"])
	}

	private func writeAtomically(_ values: [String: Any], to url: URL) throws {
		let data = try PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0)
		try data.write(to: url, options: .atomic)
	}
}
