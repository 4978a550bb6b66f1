import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

private let concurrentLaunches = TestEnvironment.count("DEFAULTS_MIGRATION_PROCESSES", default: 4)
private let raceTrials = TestEnvironment.count("DEFAULTS_MIGRATION_RACE_TRIALS", default: 3)

/// Real processes running the helper's two migrations (see MigrationCommands.swift): rename "oldName" to "name", double "count" as a Double.
@Suite("Migrations across processes: concurrent launches, a process killed mid-migration, writers meanwhile", .serialized)
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

	/// Runs the helper's migrations on a suite at version 0, held in the migration to 1 until another process has run `write KEY INT` (which flushes); returns the migrating process and its log of runs.
	private func migrate(_ suite: TestSuite, whileAnotherProcessWrites key: String, _ value: Int) throws -> (child: ChildProcess, runs: [String]) {
		try plantVersionZeroSettings(in: suite)
		let folder = suite.fileURL.deletingLastPathComponent()
		let log = folder.appendingPathComponent("\(suite.name).migrations.log").path
		let gate = folder.appendingPathComponent("\(suite.name).gate").path
		defer {
			unlink(log)
			unlink(gate)
		}

		let child = try HelperProcess.start(["migrate", suite.name, log, "0", gate])
		#expect(child.waitForLine(timeout: 60) { $0 == "migrating 1" } != nil, "\(child.errorOutputText)")
		let writer = try HelperProcess.run(["write", suite.name, key, String(value)])
		#expect(writer.status == 0, "\(writer.lines)")
		#expect(FileManager.default.createFile(atPath: gate, contents: nil))
		#expect(child.waitUntilExit(timeout: 60) == 0, "\(child.receivedLines) \(child.errorOutputText)")
		return (child, runs(in: log))
	}

	@Test func aValueWrittenWhileAMigrationThatUsesItRunsIsMigratedNotOverwritten() throws {
		var lost: [String] = []
		for trial in 1...raceTrials {
			let suite = TestSuite()
			let (child, runs) = try migrate(suite, whileAnotherProcessWrites: "count", 100)

			// Before: the commit wrote 42.0, doubled from the 21 read before the write, over the 100.
			let count = suite.fileContents()?["count"] as? Double
			if count != 200 {
				lost.append("trial \(trial): count=\(String(describing: count))")
			}
			#expect(runs == ["1", "2", "1", "2"], "the migrations ran again on the value written meanwhile")
			#expect(child.receivedLines.contains("read name=ada count=200.0"), "\(child.receivedLines)")
			#expect(suite.fileContents()?[KeyName.migrationVersion] as? Int == 2)
		}

		#expect(lost.isEmpty, "\(lost.count)/\(raceTrials) lost the value written meanwhile: \(lost)")
	}

	@Test func aValueOfAnotherKeyWrittenWhileAMigrationRunsIsKeptAndCausesNoRetry() throws {
		let suite = TestSuite()
		let (child, runs) = try migrate(suite, whileAnotherProcessWrites: "unrelated", 7)

		#expect(runs == ["1", "2"], "a key the migrations never used does not make them run again")
		#expect(child.receivedLines.contains("result none 2 1 2"), "\(child.receivedLines)")
		let file = try #require(suite.fileContents())
		#expect(file["unrelated"] as? Int == 7)
		#expect(file["count"] as? Double == 42)
		#expect(file["name"] as? String == "ada")
		#expect(file[KeyName.migrationVersion] as? Int == 2)
	}
}
