import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

private let concurrentLaunches = TestEnvironment.count("DEFAULTS_MIGRATION_PROCESSES", default: 4)

/// Real processes running the helper's two migrations (see MigrationCommands.swift): rename "oldName" to "name", double "count" as a Double.
@Suite("Migrations across processes: concurrent launches, a process killed mid-migration", .serialized)
struct MigrationProcessTests {
	private func plantVersionZeroSettings(in suite: TestSuite) throws {
		Defaults[Defaults.Key<String>("oldName", default: "", suite: suite.defaults)] = "ada"
		Defaults[Defaults.Key<Int>("count", default: 0, suite: suite.defaults)] = 21
		try Defaults.flush(suite: suite.defaults)
	}

	private func runs(in log: String) -> [String] {
		((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map { String($0.split(separator: " ")[1]) }
	}

	@Test func processesStartingTogetherRunEachMigrationOnceAndAllSeeTheResult() throws {
		let suite = TestSuite()
		try plantVersionZeroSettings(in: suite)
		let log = suite.fileURL.deletingLastPathComponent().appendingPathComponent("\(suite.name).migrations.log").path
		defer { unlink(log) }

		let children = try (0..<concurrentLaunches).map { _ in try HelperProcess.start(["migrate", suite.name, log, "200"]) }
		for child in children {
			#expect(child.waitUntilExit(timeout: 60) == 0, "\(child.receivedLines) \(child.errorOutputText)")
		}

		#expect(runs(in: log) == ["1", "2"], "each migration ran in exactly one process")
		let results = children.compactMap { $0.receivedLines.first { $0.hasPrefix("result ") } }
		#expect(results.filter { $0 == "result none 2 1 2" }.count == 1)
		#expect(results.filter { $0 == "result 2 2 " || $0 == "result 2 2" }.count == concurrentLaunches - 1)
		for child in children {
			#expect(child.receivedLines.contains("read name=ada count=42.0"), "\(child.receivedLines)")
		}
	}

	@Test func aProcessKilledInTheMiddleLeavesTheSuiteAsItWasAndTheNextLaunchMigrates() throws {
		let suite = TestSuite()
		try plantVersionZeroSettings(in: suite)
		let before = try Data(contentsOf: suite.fileURL)
		let log = suite.fileURL.deletingLastPathComponent().appendingPathComponent("\(suite.name).migrations.log").path
		defer { unlink(log) }

		let victim = try HelperProcess.start(["migrate", suite.name, log, "30000"])
		#expect(victim.waitForLine(timeout: 30) { $0 == "migrating 1" } != nil)
		victim.kill()
		_ = victim.waitUntilExit(timeout: 20)

		#expect(try Data(contentsOf: suite.fileURL) == before, "nothing of the interrupted migration was written")

		let next = try HelperProcess.run(["migrate", suite.name, log, "0"])
		#expect(next.status == 0)
		#expect(next.lines.contains("result none 2 1 2"), "\(next.lines)")
		#expect(next.lines.contains("read name=ada count=42.0"))
		#expect(runs(in: log) == ["1", "1", "2"])
		let file = try #require(suite.fileContents())
		#expect(file["oldName"] == nil)
		#expect(file[KeyName.migrationVersion] as? Int == 2)
	}
}
