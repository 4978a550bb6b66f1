import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// Kill trials; raise for a long run: `DEFAULTS_CRASH_TRIALS=5000 swift test --filter CrashHarness`.
private let crashTrials = TestEnvironment.count("DEFAULTS_CRASH_TRIALS", default: 200)

@Suite("Crash safety: SIGKILL at random moments")
struct CrashHarnessTests {
	@Test func everyAcknowledgedKeySurvivesAKill() throws {
		let suite = TestSuite()
		var acknowledged = 0
		var trialsWithWrites = 0

		for trial in 0..<crashTrials {
			// Kill at a random moment after writing has started, so every trial interrupts a write in flight.
			let helper = try HelperProcess.start(["write-keys", suite.name, "t\(trial)k", "0", "1000000"])
			_ = helper.waitForLine(timeout: 10) { $0.hasPrefix("ack") }
			Thread.sleep(forTimeInterval: Double.random(in: 0...0.030))
			helper.kill()
			let leftovers = suite.temporaryFiles().filter { !$0.contains(".\(helper.processIdentifier).") }
			#expect(leftovers.isEmpty, "trial \(trial): temporary files of earlier killed writers survived this start: \(leftovers)")

			let acks = helper.receivedLines.compactMap { line -> Int? in
				line.hasPrefix("ack ") ? Int(line.dropFirst(4)) : nil
			}
			guard let data = FileManager.default.contents(atPath: suite.fileURL.path) else {
				#expect(acks.isEmpty, "trial \(trial): keys were acknowledged but there is no file")
				continue
			}

			let plist = try? PropertyListSerialization.propertyList(from: data, format: nil)
			let contents = try #require(plist as? [String: Any], "trial \(trial): the file does not parse (\(data.count) bytes)")
			for index in acks {
				#expect(contents["t\(trial)k\(index)"] as? Int == index, "trial \(trial): acknowledged key \(index) is missing")
			}

			acknowledged += acks.count
			trialsWithWrites += acks.isEmpty ? 0 : 1
		}

		#expect(trialsWithWrites == crashTrials, "every trial was killed while writing")
		#expect(acknowledged >= crashTrials)

		#expect(try HelperProcess.run(["write", suite.name, "afterTheLastKill", "1", "flush"]).status == 0)
		#expect(suite.temporaryFiles().isEmpty, "no temporary file survives the next start")
	}
}

extension TestSuite {
	/// The temporary files of this suite's atomic replaces that are in its folder now.
	func temporaryFiles() -> [String] {
		let names = (try? FileManager.default.contentsOfDirectory(atPath: fileURL.deletingLastPathComponent().path)) ?? []
		return names.filter { $0.hasPrefix(".\(fileURL.lastPathComponent).") && $0.hasSuffix(".tmp") }
	}
}

@Suite("Several processes on one suite")
struct MultiProcessTests {
	@Test func fourWritersLoseNoKeyAndReadersNeverSeeATornFile() throws {
		let suite = TestSuite()
		let writers = try (0..<4).map { writer in
			try HelperProcess.start(["write-keys", suite.name, "w\(writer)k", "0", "500"])
		}
		let reader = try HelperProcess.start(["read-loop", suite.name, "2"])

		for writer in writers {
			#expect(writer.waitUntilExit() == 0)
		}
		reader.waitUntilExit()

		let contents = try #require(suite.fileContents())
		for writer in 0..<4 {
			for index in 0..<500 {
				#expect(contents["w\(writer)k\(index)"] as? Int == index)
			}
		}
		#expect(contents.count == 2000)
		#expect(!reader.receivedLines.contains { $0.hasPrefix("unreadable") }, "\(reader.receivedLines.filter { $0.hasPrefix("unreadable") }.prefix(3))")
		#expect(reader.receivedLines.contains { $0.hasPrefix("reads ") })
	}

	@Test(arguments: ["return", "exit"])
	func valuesWrittenJustBeforeExitArePresentInTheNextProcess(_ exitPath: String) throws {
		let suite = TestSuite()
		let result = try HelperProcess.run(["write", suite.name, "lastWords", "99", exitPath])
		#expect(result.status == 0)

		let domain = try suite.domainReadByAnotherProcess()
		#expect(domain["lastWords"] as? Int == 99)
	}
}

@Suite("UserDefaults.synchronize() stays harmless")
struct RawSynchronizeTests {
	@Test func synchronizeLosesNoKeyAndTheLibraryRestoresFullPrecision() throws {
		let suite = TestSuite()
		let earlier = Defaults.Key<Date>(suite.keyName(), default: .distantPast, suite: suite.defaults)
		let precise = Date(timeIntervalSince1970: 1_700_000_000.5)
		Defaults[earlier] = precise
		try Defaults.flush(suite: suite.defaults)

		let result = try HelperProcess.run(["write", suite.name, "fromChild", "3", "synchronize"])
		#expect(result.status == 0)

		let domain = try suite.domainReadByAnotherProcess()
		#expect(domain["fromChild"] as? Int == 3)
		#expect(domain[earlier.name] != nil, "a key another process wrote is kept")
		#expect(suite.fileContents() != nil, "the file parses")
	}
}

@Suite("Changes made by other processes")
struct CrossProcessObservationTests {
	@Test func anObserverHereHearsAWriteThere() throws {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: -1, suite: suite.defaults)
		Defaults[key] = 1
		try Defaults.flush(suite: suite.defaults)

		let changes = Recorder<(old: Int, new: Int)>()
		let observation = Defaults.observe(key, options: []) { change in
			changes.append((change.oldValue, change.newValue))
		}

		let result = try HelperProcess.run(["write", suite.name, key.name, "5", "flush"])
		#expect(result.status == 0)

		// Without any call here: the watcher alone delivers it (how soon is measured by the benchmarks, not here).
		#expect(suite.wait(timeout: 20) { changes.count > 0 })
		let change = try #require(changes.values.first)
		#expect(change.old == 1)
		#expect(change.new == 5)
		#expect(Defaults[key] == 5)
		observation.invalidate()
	}

	@Test func anObserverThereHearsAWriteHere() throws {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: -1, suite: suite.defaults)
		let observer = try HelperProcess.start(["observe", suite.name, key.name, "5"])
		#expect(observer.waitForLine(timeout: 5) { $0 == "ready" } != nil)

		Defaults[key] = 7
		try Defaults.flush(suite: suite.defaults)

		let line = observer.waitForLine(timeout: 20) { $0.hasPrefix("change") }
		#expect(line == "change -1 7")
		observer.kill()
	}
}
