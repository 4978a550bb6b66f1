import Foundation
import Testing

/// `NSStringFromClass` traps for a class that is not top level; writing such a value must be a diagnostic instead.
@Suite("Archiving a class Foundation cannot name")
struct UnnameableClassTests {
	@Test func isReportedNotWritten() throws {
		let result = try HelperProcess.run(["archive-unnameable"])
		#expect(result.status == 0, "the writer died with status \(result.status)")
		#expect(result.lines == [
			"private stored false reported 1",
			"nested stored false reported 1",
			"generic stored false reported 1",
			"holding-private stored false reported 1",
			"nameable stored true reported 0",
		])
	}
}
