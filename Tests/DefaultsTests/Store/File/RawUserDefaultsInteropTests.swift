import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// The three terms on which raw `UserDefaults` and the library share a suite in one process (README, "Durability on Linux").
@Suite("Raw UserDefaults in the same process")
struct RawUserDefaultsInteropTests {
	@Test func aRawReadSeesTheLibrarysWriteOnceItIsFlushed() throws {
		let suite = TestSuite()
		let key = Defaults.Key<String>(suite.keyName(), default: "default", suite: suite.defaults)
		#expect(suite.defaults.object(forKey: key.name) as? String == "default", "the registered default, for raw readers too")

		Defaults[key] = "library"
		try Defaults.flush(suite: suite.defaults)
		#expect(suite.defaults.string(forKey: key.name) == "library")

		Defaults[key] = "again"
		try Defaults.flush(suite: suite.defaults)
		#expect(suite.defaults.string(forKey: key.name) == "again", "Foundation reads the file again after each flush")
	}

	@Test func aRawReadSeesTheLibrarysWriteWithinTheCoalescingWindow() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		Defaults[key] = 7
		#expect(suite.wait(timeout: 5) { suite.defaults.integer(forKey: key.name) == 7 })
	}

	@Test func aSynchronizedRawWriteReachesReadsAndObserversThroughTheWatcher() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let values = Recorder<Int>()
		let observation = Defaults.observe(key, options: []) { values.append($0.newValue) }
		defer { observation.invalidate() }

		suite.defaults.set(1, forKey: key.name)
		#expect(Defaults[key] == 0, "not synchronized: Foundation keeps it to itself")
		suite.defaults.synchronize()
		#expect(suite.wait(timeout: 5) { Defaults[key] == 1 }, "seen like another process's write")
		#expect(suite.wait(timeout: 5) { values.values == [1] })
	}

	@Test func aSynchronizedRawWriteIsSeenAtOnceAfterAFlush() throws {
		let suite = TestSuite()
		let key = Defaults.Key<String?>(suite.keyName(), suite: suite.defaults)
		suite.defaults.set("raw", forKey: key.name)
		suite.defaults.synchronize()
		try Defaults.flush(suite: suite.defaults)
		#expect(Defaults[key] == "raw")
	}

	/// A raw write left unsynchronized, then a newer write of the same key through the library.
	///
	/// Run in a process of its own: on Linux any suite's `synchronize()` saves every suite's raw writes, so a flush of
	/// another suite by a test running beside it, racing this flush, saved the raw writes at a moment of its own, and this
	/// flush's replacement of the file then dropped them (CI, 1 run in many).
	@Test func foundationsStaleCopyNeverRevertsANewerLibraryWrite() throws {
		let suite = TestSuite()
		let key = suite.keyName()
		let other = suite.keyName("other")
		let writer = try HelperProcess.run(["raw-then-write", suite.name, key, other])
		#expect(writer.status == 0)

		#expect(writer.lines == [
			"diagnostic restoredNewerValue \(key)",
			"value 2",
			"other 5", // a raw write to another key is kept and seen
			"value 2", // later synchronizations by the program find nothing stale to write back
		])
		#expect(suite.fileContents()?[key] as? Int == 2, "the library's newer value is what the file holds")
		#expect(suite.fileContents()?[other] as? Int == 5)
		#expect(suite.defaults.integer(forKey: key) == 2, "and what raw reads see")
	}

	/**
	A raw write left unsynchronized, then another process's write of the same
	key through the library: this process's next flush made Foundation save
	its stale raw value over the other process's, silently (6 of 6 before).
	*/
	///
	/// Run in a process of its own: on Linux any suite's `synchronize()` saves every suite's raw writes,
	/// so the flushes of tests running beside it would save this raw write at moments of their own.
	@Test func anUnsynchronizedRawWriteNeverRevertsAnotherProcesssWrite() throws {
		let suite = TestSuite()
		let key = suite.keyName()
		let rawWriter = try HelperProcess.start(["raw-then-flush", suite.name, key, suite.keyName("other"), "1", "2"])
		#expect(rawWriter.waitForLine(timeout: 60) { $0 == "raw written" } != nil)
		let writer = try HelperProcess.run(["write", suite.name, key, "2"])
		#expect(writer.status == 0)
		#expect(rawWriter.waitUntilExit(timeout: 120) == 0, "\(rawWriter.errorOutputText)")

		#expect(rawWriter.receivedLines == ["raw written", "seen 2", "diagnostic restoredNewerValue unordered", "value 2"])
		#expect(suite.fileContents()?[key] as? Int == 2, "the other process's value is what the file holds")
	}

	/// Another process wrote the key and then wrote back the value this process last wrote (A-B-A): the raw write won without a word before (6/6 in review).
	@Test func anUnsynchronizedRawWriteNeverRevertsAWriteThatCameBackToTheOldValue() throws {
		let suite = TestSuite()
		let key = suite.keyName()
		let rawWriter = try HelperProcess.start(["raw-then-flush", suite.name, key, suite.keyName("other"), "9", "2", "1"])
		#expect(rawWriter.waitForLine(timeout: 60) { $0 == "raw written" } != nil)
		#expect(try HelperProcess.run(["write", suite.name, key, "2"]).status == 0)
		#expect(rawWriter.waitForLine(timeout: 60) { $0 == "seen 2" } != nil)
		#expect(try HelperProcess.run(["write", suite.name, key, "1"]).status == 0)
		#expect(rawWriter.waitUntilExit(timeout: 120) == 0, "\(rawWriter.errorOutputText)")

		#expect(rawWriter.receivedLines == ["raw written", "seen 2", "seen 1", "diagnostic restoredNewerValue unordered", "value 1"])
		#expect(suite.fileContents()?[key] as? Int == 1)
	}

	/// Run in a process of its own, for the reason `foundationsStaleCopyNeverRevertsANewerLibraryWrite` gives.
	@Test func anUnsynchronizedRawWriteOfAKeyNobodyElseWroteIsKept() throws {
		let suite = TestSuite()
		let key = suite.keyName()
		let writer = try HelperProcess.run(["flush-then-raw", suite.name, key, suite.keyName("other")])
		#expect(writer.status == 0)
		#expect(writer.lines == ["value 4"], "no diagnostic: the raw write is the newest value")
		#expect(suite.fileContents()?[key] as? Int == 4)
	}

	@Test func aRawSynchronizeAfterTheLibrarysFlushKeepsTheLibrarysValue() throws {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		_ = suite.defaults.integer(forKey: key.name)  // Foundation loads its copy
		Defaults[key] = 3
		try Defaults.flush(suite: suite.defaults)
		suite.defaults.set(9, forKey: suite.keyName("unrelated"))
		suite.defaults.synchronize()
		try Defaults.flush(suite: suite.defaults)
		#expect(Defaults[key] == 3)
		#expect(suite.fileContents()?[key.name] as? Int == 3)
	}

	/**
	A raw write made before the library touched the suite loads Foundation's
	copy then; another process's write of the key after that is newer than
	what the copy was loaded from, and the first flush must not save the raw
	value over it (issue 38: reverted without a word, 2 of 2). The raw write
	of a key the file did not hold stays.
	*/
	@Test func aRawWriteBeforeTheLibraryNeverRevertsALaterWriteOfAnotherProcess() throws {
		let suite = TestSuite()
		let key = suite.keyName()
		let raw = suite.keyName("raw")
		let other = suite.keyName("other")
		#expect(try HelperProcess.run(["write", suite.name, key, "1"]).status == 0)
		let go = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-raw-first-\(UUID().uuidString)")
		defer { try? FileManager.default.removeItem(at: go) }

		let rawWriter = try HelperProcess.start(["raw-first", suite.name, "\(key),\(raw)", "7", go.path, other])
		defer { rawWriter.kill() }
		#expect(rawWriter.waitForLine(timeout: 60) { $0 == "raw written" } != nil)
		#expect(try HelperProcess.run(["write", suite.name, key, "2"]).status == 0)
		#expect(FileManager.default.createFile(atPath: go.path, contents: nil))
		#expect(rawWriter.waitUntilExit(timeout: 120) == 0, "\(rawWriter.errorOutputText)")

		#expect(rawWriter.receivedLines == ["raw written", "diagnostic restoredNewerValue", "done"])
		let file = try #require(suite.fileContents())
		#expect(file[key] as? Int == 2, "the other process's newer write stays")
		#expect(file[raw] as? Int == 7, "the raw write of a key the file did not hold stays")
		#expect(file[other] as? Int == 1)
	}

	/// The same raw write of a key the file holds, when no other process wrote the file since this one started: Foundation's copy is not stale, and the raw write is the newest value.
	@Test func aRawWriteBeforeTheLibraryIsKeptWhenNobodyWroteSince() throws {
		let suite = TestSuite()
		let key = suite.keyName()
		let other = suite.keyName("other")
		#expect(try HelperProcess.run(["write", suite.name, key, "1"]).status == 0)
		// The process starts at least a second after the file was written: the start is known to a second.
		Thread.sleep(forTimeInterval: 2.1)
		let rawWriter = try HelperProcess.start(["raw-first", suite.name, key, "7", "/", other])
		defer { rawWriter.kill() }
		#expect(rawWriter.waitUntilExit(timeout: 120) == 0, "\(rawWriter.errorOutputText)")

		#expect(rawWriter.receivedLines == ["raw written", "done"])
		#expect(suite.fileContents()?[key] as? Int == 7)
	}
}
