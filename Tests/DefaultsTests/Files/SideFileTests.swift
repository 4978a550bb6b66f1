import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// Unreadable files set aside by concurrent processes; raise for a long run: `DEFAULTS_ASIDE_TRIALS=3000`.
private let asideTrials = TestEnvironment.count("DEFAULTS_ASIDE_TRIALS", default: 200)

/// Kills of a writer looking for one between creating and renaming its temporary file.
private let temporaryKillTrials = TestEnvironment.count("DEFAULTS_TEMPORARY_KILL_TRIALS", default: 100)

@Suite("Files next to the suite file: set-aside copies and temporaries")
struct SideFileTests {
	private static func folderEntries(startingWith prefix: String) -> [String] {
		((try? FileManager.default.contentsOfDirectory(atPath: TestEnvironment.configHome.path)) ?? []).filter { $0.hasPrefix(prefix) }
	}

	private static func removeAsides(of suite: TestSuite) {
		for name in folderEntries(startingWith: "\(suite.name).unreadable-") {
			try? FileManager.default.removeItem(at: TestEnvironment.configHome.appendingPathComponent(name))
		}
	}

	@Test func setAsideNeverReplacesAnEarlierCopy() throws {
		let suite = TestSuite()
		defer { Self.removeAsides(of: suite) }
		let fileSystem = POSIXFileSystem()
		let count = 300
		for index in 0..<count {
			try Data("garbage \(index)".utf8).write(to: suite.fileURL)
			// One suffix for all: as if every move happened within one millisecond.
			_ = try fileSystem.moveAside(suite.fileURL, suffix: "unreadable-20260101T000000.000")
		}

		let asides = Self.folderEntries(startingWith: "\(suite.name).unreadable-")
		let kept = Set(asides.compactMap { FileManager.default.contents(atPath: TestEnvironment.configHome.appendingPathComponent($0).path) })
		#expect(asides.count == count)
		#expect(kept == Set((0..<count).map { Data("garbage \($0)".utf8) }))
		#expect(try PreferencesFile.domainNames().filter { $0.hasPrefix(suite.name) }.isEmpty, "copies are not listed as domains")
	}

	@Test func unreadableFilesSetAsideByConcurrentProcessesAreAllKept() throws {
		let suite = TestSuite()
		defer { Self.removeAsides(of: suite) }
		let processes = 4
		let rounds = max(1, asideTrials / processes)
		let start = Date()
		let children = try (0..<processes).map { _ in
			try HelperProcess.start(["corrupt-and-flush", suite.name, "\(rounds)"])
		}
		for child in children {
			#expect(child.waitUntilExit() == 0, "\(child.errorOutputText)")
		}

		let written = Set(children.flatMap(\.receivedLines).filter { $0.hasPrefix("garbage ") })
		let asides = Self.folderEntries(startingWith: "\(suite.name).unreadable-")
		let kept = Set(asides.compactMap { FileManager.default.contents(atPath: TestEnvironment.configHome.appendingPathComponent($0).path) }
			.map { String(decoding: $0, as: UTF8.self) })
		let lost = written.subtracting(kept)
		print("measured: \(written.count) unreadable files set aside by \(processes) processes in \(Int(Date().timeIntervalSince(start) * 1000)) ms: \(lost.count) lost, \(asides.count) copies")
		#expect(written.count >= processes, "every process corrupted the file at least once")
		#expect(lost.isEmpty, "\(lost.count) of \(written.count) set-aside files were overwritten")
		#expect(asides.count == written.count)
		#expect(suite.fileContents() != nil, "the suite file itself is readable")
	}

	@Test func filesSetAsideWithinOneMillisecondByConcurrentProcessesAreAllKept() throws {
		let suite = TestSuite()
		defer { Self.removeAsides(of: suite) }
		let processes = 4
		let start = Date()
		let children = try (0..<processes).map { _ in
			try HelperProcess.start(["set-aside", suite.name, "\(max(1, asideTrials * 5 / processes))"])
		}
		for child in children {
			#expect(child.waitUntilExit() == 0, "\(child.errorOutputText)")
		}

		let written = Set(children.flatMap(\.receivedLines).filter { $0.hasPrefix("garbage ") })
		let asides = Self.folderEntries(startingWith: "\(suite.name).unreadable-")
		let kept = Set(asides.compactMap { FileManager.default.contents(atPath: TestEnvironment.configHome.appendingPathComponent($0).path) }
			.map { String(decoding: $0, as: UTF8.self) })
		let lost = written.subtracting(kept)
		let sharedNames = asides.filter { $0.contains(".000-") || $0.wholeMatch(of: /.*\d{3}-\d+\.plist/) != nil }.count
		print("measured: \(written.count) files set aside by \(processes) processes in \(Int(Date().timeIntervalSince(start) * 1000)) ms, \(sharedNames) in a millisecond already taken: \(lost.count) lost")
		#expect(lost.isEmpty, "\(lost.count) of \(written.count) set-aside files were overwritten")
		#expect(asides.count == written.count)
	}

	@Test func temporariesOfKilledWritersAreRemovedAtTheNextStart() throws {
		let suite = TestSuite()
		defer {
			for name in suite.temporaryFiles() {
				try? FileManager.default.removeItem(at: TestEnvironment.configHome.appendingPathComponent(name))
			}
		}

		// Kill writers at random moments until one dies between creating its temporary file and renaming it.
		var kills = 0
		while kills < temporaryKillTrials, suite.temporaryFiles().isEmpty {
			let writer = try HelperProcess.start(["write-keys", suite.name, "k\(kills)_", "0", "1000000"])
			_ = writer.waitForLine(timeout: 10) { $0.hasPrefix("ack") }
			Thread.sleep(forTimeInterval: Double.random(in: 0...0.010))
			writer.kill()
			kills += 1
		}

		let abandoned = suite.temporaryFiles()
		print("measured: \(abandoned.count) temporary file(s) abandoned after \(kills) kills")
		try #require(!abandoned.isEmpty, "no kill landed between creating and renaming the temporary file in \(kills) trials")

		#expect(try HelperProcess.run(["write", suite.name, "next", "1", "flush"]).status == 0)
		#expect(suite.temporaryFiles().isEmpty, "the next start removes them")
		#expect(suite.fileContents()?["next"] as? Int == 1)
	}

	@Test func aTemporaryOfARunningWriterIsKept() throws {
		let suite = TestSuite()
		let url = suite.fileURL
		let ours = TemporaryFileName.make(for: url)
		// The test process runs; PID 1 runs too (and is never this test's child).
		let running = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).1.42.tmp")
		let otherSuite = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).x.999999999.1.tmp")
		for file in [ours, running, otherSuite] {
			try Data("partial".utf8).write(to: file)
		}
		defer { [ours, running, otherSuite].forEach { try? FileManager.default.removeItem(at: $0) } }

		POSIXFileSystem().removeAbandonedTemporaries(of: url)
		for file in [ours, running, otherSuite] {
			#expect(FileManager.default.fileExists(atPath: file.path), "\(file.lastPathComponent)")
		}
		#expect(TemporaryFileName.writer(of: ours.lastPathComponent, temporaryOf: url) == getpid())
		#expect(TemporaryFileName.writer(of: otherSuite.lastPathComponent, temporaryOf: url) == nil)
	}
}
