import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// A stored NaN is a value like any other: it never counts as changed when nobody changed it.
@Suite("A stored NaN equals itself")
struct StoredNaNTests {
	@Test func storedValuesCompareNaNAsEqual() {
		let nan: PropertyListValue = .dictionary(["a": .array([.double(.nan), .float(.nan)])])
		#expect(nan == nan)
		#expect(Set([nan, nan]).count == 1)
		#expect(PropertyListFileContents.changedKeys(from: ["x": nan], to: ["x": nan]).isEmpty)
		#expect(PropertyListValue.double(.nan) != .double(0))
		#expect(PropertyListValue.double(-0.0) == .double(0.0))
	}

	/// Before, each look at the file after another process's write told the NaN key's observers it had changed.
	@Test func anotherProcesssWriteDoesNotReportAStoredNaNAsChanged() async throws {
		let suite = TestSuite()
		let nan = Defaults.Key<Double>(suite.keyName("nan"), default: 0, suite: suite.defaults)
		let other = Defaults.Key<Int>(suite.keyName("other"), default: 0, suite: suite.defaults)
		Defaults[nan] = .nan
		try Defaults.flush(suite: suite.defaults)
		let changes = Recorder<Double>()
		let observation = Defaults.observe(nan, options: []) { changes.append($0.newValue) }
		defer { observation.invalidate() }

		let writer = try HelperProcess.run(["write", suite.name, other.name, "5"])
		#expect(writer.status == 0)
		#expect(await eventually { Defaults[other] == 5 })
		try Defaults.flush(suite: suite.defaults)

		#expect(changes.values.isEmpty, "\(changes.values)")
		#expect(Defaults[nan].isNaN)
	}

	/// Reading it through a key of another type trapped in `Date.description`, which the diagnostic used to name the stored value.
	@Test func aStoredNaNDateReadAsAnotherTypeGivesTheDefaultAndOneDiagnostic() throws {
		let suite = TestSuite()
		let name = suite.keyName("nanDate")
		try Defaults.importSettings(
			PropertyListSerialization.data(fromPropertyList: [name: [Date(timeIntervalSinceReferenceDate: .nan)]], format: .binary, options: 0),
			into: suite.defaults
		)
		let key = Defaults.Key<Int>(name, default: 4, suite: suite.defaults)
		var value = 0
		let reported = diagnostics {
			value = Defaults[key]
		}

		#expect(value == 4)
		#expect(reported.map(\.kind) == [.undecodableValue], "\(reported)")
		#expect(reported.first?.message.contains("NaN") == true)
	}
}
