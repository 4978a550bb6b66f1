import Foundation
import Testing
@testable import Defaults

/// The documented limit of observation on Linux, and its workaround.
@Suite("Observation: raw UserDefaults setters are not observed; the key's subscripts are")
struct RawSetterWriteTests {
	@Test func aRawSetterWriteReachesNoObserverButIsReadBack() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let values = Recorder<Int>()
		let observation = Defaults.observe(key, options: []) { values.append($0.newValue) }

		suite.defaults.set(1, forKey: key.name)
		#expect(values.values.isEmpty)
		#expect(Defaults[key] == 1)

		suite.defaults[key] = 2          // the workaround: the suite's subscript
		Defaults[key] = 3                // or the key's
		#expect(values.values == [2, 3])
		observation.invalidate()
	}
}
