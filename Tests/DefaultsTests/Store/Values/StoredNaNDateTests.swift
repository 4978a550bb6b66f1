import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// Stored dates that compare oddly: a NaN date is a value like any other, equal to itself.
@Suite("A stored NaN date equals itself")
struct StoredNaNDateTests {
	/// A date is a real number of seconds: a NaN one (a binary property list holds any double) must equal itself too.
	@Test func aStoredNaNDateEqualsItself() {
		// Two trees built apart: an array or dictionary compared with itself short-cuts to equal by identity.
		func nanDate() -> PropertyListValue {
			.dictionary(["d": .array([.date(Date(timeIntervalSinceReferenceDate: .nan))])])
		}

		// Compared into Bools first: a failed expectation would print the dates, and a NaN date's description traps.
		let equal = nanDate() == nanDate()
		let hashedAlike = Set([nanDate(), nanDate()]).count == 1
		let unchanged = PropertyListFileContents.changedKeys(from: ["x": nanDate()], to: ["x": nanDate()]).isEmpty
		let differsFromANumber = PropertyListValue.date(Date(timeIntervalSinceReferenceDate: .nan)) != .date(Date(timeIntervalSinceReferenceDate: 0))
		#expect(equal)
		#expect(hashedAlike)
		#expect(unchanged)
		#expect(differsFromANumber)
	}

	/// As with a NaN double: another process's write must not tell a NaN date's observers it changed.
	@Test func anotherProcesssWriteDoesNotReportAStoredNaNDateAsChanged() async throws {
		let suite = TestSuite()
		let date = Defaults.Key<Date>(suite.keyName("date"), default: .distantPast, suite: suite.defaults)
		let other = Defaults.Key<Int>(suite.keyName("other"), default: 0, suite: suite.defaults)
		Defaults[date] = Date(timeIntervalSinceReferenceDate: .nan)
		try Defaults.flush(suite: suite.defaults)
		let changes = Recorder<Date>()
		let observation = Defaults.observe(date, options: []) { changes.append($0.newValue) }
		defer { observation.invalidate() }

		#expect(try HelperProcess.run(["write", suite.name, other.name, "5"]).status == 0)
		#expect(await eventually { Defaults[other] == 5 })
		try Defaults.flush(suite: suite.defaults)

		#expect(changes.count == 0, "observers told of \(changes.count) changes")
	}
}
