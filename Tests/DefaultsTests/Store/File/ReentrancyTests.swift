import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

@Suite("User code runs after the library's locks are released")
struct ReentrancyTests {
	@Test func aDiagnosticHandlerMayWriteAndFlush() throws {
		let name = "defaults-tests.reentrant.\(UUID().uuidString)"
		defer {
			TestEnvironment.removeFiles(ofSuite: name)
			let asides = (try? FileManager.default.contentsOfDirectory(atPath: TestEnvironment.configHome.path)) ?? []
			for aside in asides where aside.hasPrefix("\(name).unreadable-") {
				try? FileManager.default.removeItem(at: TestEnvironment.configHome.appendingPathComponent(aside))
			}
		}
		try Data("not a property list".utf8).write(to: TestEnvironment.fileURL(ofSuite: name))

		let child = try HelperProcess.start(["reentrant-diagnostics", name, "value", "4"])
		let status = child.waitUntilExit(timeout: 20)

		#expect(status == 0, "no deadlock: \(child.errorOutputText)")
		#expect(child.receivedLines.contains("diagnostic unreadableFile"))
		#expect(child.receivedLines.contains("done"))
		let data = try #require(FileManager.default.contents(atPath: TestEnvironment.fileURL(ofSuite: name).path))
		let contents = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
		#expect(contents["value"] as? Int == 4)
		#expect((contents["fromHandler"] as? Int ?? 0) >= 1, "the handler's own write is on disk")
	}

	@Test func aWriteAnObserverMakesDuringTheExitFlushIsPersisted() throws {
		let suite = TestSuite()
		let child = try HelperProcess.start(["observer-writes-at-exit", suite.name])
		let status = child.waitUntilExit(timeout: 20)

		#expect(status == 0, "\(child.receivedLines) \(child.errorOutputText)")
		let contents = try #require(suite.fileContents())
		#expect(contents["mine"] as? Int == 2)
		#expect(contents["watched"] as? Int == 5)
		#expect(contents["reaction"] as? Int == 5, "the observer's write, made while the exit flush delivered the other process's change")
	}
}
