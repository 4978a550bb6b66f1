import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

@Suite("One diagnostic per undecodable stored value")
struct OneDiagnosticPerFactTests {
	@Test func repeatedReadsReportOnce() {
		let suite = TestSuite()
		let name = suite.keyName()
		let key = Defaults.Key<Int>(name, default: 7, suite: suite.defaults)
		suite.defaults.setRawAndSynchronize("not a number", forKey: name)

		let reported = diagnostics {
			for _ in 0..<8 {
				#expect(Defaults[key] == 7)
			}
		}

		#expect(reported.count == 1)
		#expect(reported.first?.kind == .undecodableValue)
	}

	@Test func aChangedStoredValueIsReportedAgain() {
		let suite = TestSuite()
		let name = suite.keyName()
		let key = Defaults.Key<Int>(name, default: 7, suite: suite.defaults)

		let reported = diagnostics {
			suite.defaults.setRawAndSynchronize("first", forKey: name)
			_ = Defaults[key]
			_ = Defaults[key]
			suite.defaults.setRawAndSynchronize(["second"], forKey: name)
			_ = Defaults[key]
			_ = Defaults[key]
		}

		#expect(reported.map(\.kind) == [.undecodableValue, .undecodableValue])
	}

	@Test func eachKeyAndSuiteIsItsOwnFact() {
		let suite = TestSuite()
		let other = TestSuite()
		let name = suite.keyName()
		let first = Defaults.Key<Int>(name, default: 0, suite: suite.defaults)
		let second = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let sameNameOtherSuite = Defaults.Key<Int>(name, default: 0, suite: other.defaults)
		for key in [first, second, sameNameOtherSuite] {
			key.suite.setRawAndSynchronize("bad", forKey: key.name)
		}

		let reported = diagnostics {
			for _ in 0..<3 {
				_ = Defaults[first]
				_ = Defaults[second]
				_ = Defaults[sameNameOtherSuite]
			}
		}

		#expect(reported.count == 3)
	}
}
