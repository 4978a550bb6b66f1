import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/**
Two processes growing different keys of one suite: each admits its own write
against the file it knows, so only the merge under the inter-process lock
sees them together. The late writer's growth is refused there (the file stays
within the 64 MiB the library reads back, and within the suite's budget), and
its `Defaults.flush()` throws, since the file does not hold its write.
*/
@Suite("A flush whose merge with another process's write refuses a change")
struct MergeRefusalTests {
	/// What the late writer printed after the early one flushed, and the file both wrote.
	private func race(bytes: Int, budget: Int) throws -> (late: [String], file: [String: Any]) {
		let suite = TestSuite()
		let go = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-merge-go-\(UUID().uuidString)")
		defer { try? FileManager.default.removeItem(at: go) }

		let late = try HelperProcess.start(["write-data-when", suite.name, "late", "\(bytes)", "\(budget)", go.path])
		defer { late.kill() }
		#expect(late.waitForLine(timeout: 60) { $0 == "written" } != nil)
		// "/" exists: the early writer flushes at once.
		let early = try HelperProcess.run(["write-data-when", suite.name, "early", "\(bytes)", "\(budget)", "/"])
		#expect(early.lines.contains("flushed"), "\(early.lines)")

		#expect(FileManager.default.createFile(atPath: go.path, contents: nil))
		#expect(late.waitUntilExit(timeout: 120) == 0)
		return (late.receivedLines, try #require(suite.fileContents()))
	}

	@Test("past the 64 MiB the library reads back: the late flush throws fileWouldBeTooLarge, and its key reads the file's value")
	func pastTheFileLimit() throws {
		let (late, file) = try race(bytes: 35 * 1024 * 1024, budget: 0)
		#expect(late.contains("error fileWouldBeTooLarge"), "\(late)")
		#expect(late.last == "size 0")
		#expect((file["early"] as? Data)?.count == 35 * 1024 * 1024)
		#expect(file["late"] == nil)
	}

	@Test("past the suite's size budget: the late flush throws sizeBudgetExceeded, and the file stays within the budget")
	func pastTheBudget() throws {
		let (late, file) = try race(bytes: 12_000, budget: 20_000)
		#expect(late.contains("error sizeBudgetExceeded"), "\(late)")
		#expect(late.last == "size 0")
		#expect(file["late"] == nil)
		#expect((file["early"] as? Data)?.count == 12_000)
	}
}
