import DefaultsTestSupport
import DefaultsTesting
import Foundation
import Testing
@testable import Defaults

@Suite("Sync ledger")
struct SyncLedgerTests {
	@Test("the timestamps of a file-backed suite survive a restart")
	func timestampsSurviveARestart() async throws {
		let suite = TestSuite()
		defer { TestEnvironment.removeFiles(ofSuite: "\(suite.name).defaults-sync") }
		let key = Defaults.Key<String>(suite.keyName(), default: "default", suite: suite.defaults)

		let before = Synchronizer(device: "desk")
		before.add([key])
		before.remote = InMemoryRemoteStore()
		suite.defaults[key] = "mine"
		// The timestamp is saved once the value is in the file: by the flush, once it wrote it.
		await before.waitForSyncCompletion()
		try Defaults.flush(suite: suite.defaults)
		let written = try #require(before.timestamp(of: key))

		let restarted = Synchronizer(device: "desk")
		restarted.add([key])
		#expect(restarted.timestamp(of: key) == written)
		// The suite keeps one ledger for the process: read its file as a new process would.
		#expect(SyncLedger(for: key.suiteObject)[key.name] == written)
	}

	/// A timestamp is saved only once the value it stamps is in the suite's file: one whose value is pending waits for a later save.
	@Test("a timestamp waits until its value is in the suite's file")
	func aTimestampWaitsForItsValue() throws {
		let suite = TestSuite()
		defer { TestEnvironment.removeFiles(ofSuite: "\(suite.name).defaults-sync") }
		let name = suite.keyName()
		let other = suite.keyName()
		let ledger = SyncLedger(for: Suite.of(suite.defaults))
		let stamp = Defaults.SyncTimestamp(milliseconds: 2_000, counter: 0, device: "desk")
		ledger.record(stamp, for: name)
		ledger.record(stamp, for: other)
		#expect(ledger.hasUnsaved(among: [name]))

		ledger.saveRecorded { $0 == name }
		let afterFirst = SyncLedger(for: Suite.of(suite.defaults))
		#expect(afterFirst[name] == nil, "its value is not in the file yet")
		#expect(afterFirst[other] == stamp)
		#expect(ledger.hasUnsaved(among: [name]) && !ledger.hasUnsaved(among: [other]))

		ledger.saveRecorded { _ in false }
		#expect(SyncLedger(for: Suite.of(suite.defaults))[name] == nil, "a waiting stamp waits for the flush that stores its value")
		ledger.flushEnded { $0 == name }
		#expect(SyncLedger(for: Suite.of(suite.defaults))[name] == nil, "a flush that did not store it: still pending")
		ledger.flushEnded { _ in false }
		#expect(SyncLedger(for: Suite.of(suite.defaults))[name] == stamp)
		#expect(!ledger.hasUnsaved(among: [name, other]))
	}

	/**
	Each synced write of a burst asks for sync work, and a save follows each
	piece: a save looks only at the stamps recorded since the last one, not
	at every stamp still waiting for the flush (which made a burst of 1,000
	writes cost 500,000 looks, 16 → 55 ms in the benchmark).
	*/
	@Test("a burst of writes costs each save only what was recorded since the last")
	func aBurstCostsEachSaveWhatIsNew() throws {
		let suite = TestSuite()
		defer { TestEnvironment.removeFiles(ofSuite: "\(suite.name).defaults-sync") }
		let ledger = SyncLedger(for: Suite.of(suite.defaults))
		let names = (0..<1_000).map { "burst-\($0)" }
		var looks = 0
		for (counter, name) in names.enumerated() {
			ledger.record(Defaults.SyncTimestamp(milliseconds: 2_000, counter: UInt32(counter), device: "desk"), for: name)
			ledger.saveRecorded { _ in
				looks += 1
				return true
			}
		}

		#expect(looks == names.count, "one look a stamp while its value is pending")
		#expect(SyncLedger(for: Suite.of(suite.defaults))[names[0]] == nil)

		ledger.flushEnded { _ in
			looks += 1
			return false
		}
		#expect(looks == 2 * names.count)
		let reread = SyncLedger(for: Suite.of(suite.defaults))
		#expect(names.allSatisfy { reread[$0] != nil }, "the flush's save wrote them all")
	}

	/// The flush that stores a value can end while a save is looking at its stamp, and find nothing of its own to save.
	@Test("a flush that stores a value while a save looks at its stamp leaves nothing waiting")
	func aFlushDuringASaveLeavesNothingWaiting() throws {
		let fixture = LedgerFixture()
		let name = fixture.suite.keyName()
		let stamp = Defaults.SyncTimestamp(milliseconds: 2_000, counter: 0, device: "desk")
		fixture.ledger.record(stamp, for: name)
		// Pending when looked at; the flush stores it before the save is done with it.
		fixture.saveRecorded { fixture.ledger.flushEnded { _ in false } }

		#expect(fixture.reread[name] == stamp)
		#expect(!fixture.ledger.hasUnsaved(among: [name]))
	}

	/**
	A synced write that a flush refuses (another process's write took the
	suite's budget meanwhile) reads the file's value again: its timestamp is
	forgotten, so the ledger never claims a stamp for a value the file does
	not hold, and the remote's entry can replace the value later.
	*/
	@Test("a synced write the flush refuses leaves no timestamp behind")
	func aRefusedWriteLeavesNoTimestamp() async throws {
		let suite = TestSuite()
		defer { TestEnvironment.removeFiles(ofSuite: "\(suite.name).defaults-sync") }
		Defaults.setSizeBudget(Defaults.SizeBudget(perValue: 20_000, perSuite: 20_000), suite: suite.defaults)
		let key = Defaults.Key<Data?>(suite.keyName(), suite: suite.defaults)
		let synchronizer = Synchronizer(device: "desk")
		synchronizer.add([key])
		synchronizer.remote = InMemoryRemoteStore()
		// Another process holds the suite's lock, so the write stays pending (the process-wide write mode is left alone:
		// tests running beside this one write too).
		let holder = try HelperProcess.start(["hold-lock", suite.name])
		defer { holder.kill() }
		#expect(holder.waitForLine(timeout: 10) { $0 == "locked" } != nil)
		// This key's 12,000 bytes are admitted against the file this process knows; meanwhile the holder wrote 12,000 of another key.
		suite.defaults[key] = Data(count: 12_000)
		let stamp = try #require(synchronizer.timestamp(of: key))
		let others = try PropertyListSerialization.data(fromPropertyList: ["other": Data(count: 12_000)], format: .binary, options: 0)
		try others.write(to: TestEnvironment.fileURL(ofSuite: suite.name))
		holder.kill()

		#expect(throws: Defaults.PersistenceError.self) { try Defaults.flush(suite: suite.defaults) }
		#expect(suite.defaults[key] == nil, "the value is the file's again")
		#expect(synchronizer.timestamp(of: key) == nil, "not \(stamp): the value it stamped is not stored")
		await synchronizer.waitForSyncCompletion()
		#expect(SyncLedger(for: key.suiteObject)[key.name] == nil, "no save wrote the forgotten stamp")
	}

	/// A ledger that cannot be saved says so once, not at each retry, and again after a save worked and then failed.
	@Test("a failing save is reported when it starts failing, not at every retry")
	func aFailingSaveIsReportedOnce() throws {
		let suite = TestSuite()
		let ledgerURL = TestEnvironment.fileURL(ofSuite: "\(suite.name).defaults-sync")
		defer { try? FileManager.default.removeItem(at: ledgerURL) }
		let ledger = SyncLedger(for: Suite.of(suite.defaults))
		let name = suite.keyName()
		func failingSaves(_ count: Int) throws -> [Defaults.Diagnostic] {
			try? FileManager.default.removeItem(at: ledgerURL)
			try FileManager.default.createDirectory(at: ledgerURL, withIntermediateDirectories: true)
			defer { try? FileManager.default.removeItem(at: ledgerURL) }
			return diagnostics {
				for counter in 0..<count {
					ledger.record(Defaults.SyncTimestamp(milliseconds: 1_000, counter: UInt32(counter), device: "desk"), for: name)
					ledger.saveRecorded { _ in false }
				}
			}.filter { $0.kind == .syncFailed }
		}

		#expect(try failingSaves(5).count == 1, "a directory stands where the ledger goes: every save fails")
		ledger.saveRecorded { _ in false }
		#expect(SyncLedger(for: Suite.of(suite.defaults))[name] != nil, "saved once it can be, with the stamps that waited")
		#expect(try failingSaves(3).count == 1, "failing again after a save worked is news")
	}
}
