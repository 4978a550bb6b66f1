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
		await before.waitForSyncCompletion()
		let written = try #require(before.timestamp(of: key))

		let restarted = Synchronizer(device: "desk")
		restarted.add([key])
		#expect(restarted.timestamp(of: key) == written)
		// The suite keeps one ledger for the process: read its file as a new process would.
		#expect(SyncLedger(for: key.suiteObject)[key.name] == written)
	}

	/// A timestamp is saved only once the value it stamps is stored, and the file says so for each key; a ledger an earlier build saved does not.
	@Test("timestamps are saved after their values, and the file names the keys saved so")
	func timestampsAreSavedAfterTheirValues() throws {
		let suite = TestSuite()
		defer { TestEnvironment.removeFiles(ofSuite: "\(suite.name).defaults-sync") }
		let name = suite.keyName()
		let ledgerFile = try PreferencesFile(domain: suite.name + SideFileNames.ledgerSuffix)
		let earlier = Defaults.SyncTimestamp(milliseconds: 1_000, counter: 0, device: "desk")
		try ledgerFile.update { $0 = [name: earlier.propertyListValue] }
		#expect(SyncLedger(for: Suite.of(suite.defaults)).follows(name) == false, "saved by an earlier build")

		let ledger = SyncLedger(for: Suite.of(suite.defaults))
		let later = Defaults.SyncTimestamp(milliseconds: 2_000, counter: 0, device: "desk")
		ledger.record(later, for: name)
		#expect(ledger.follows(name), "recorded here, after the value")

		// Values that cannot be stored: the timestamp waits, and says why.
		let reported = diagnostics {
			ledger.save { () throws(Defaults.PersistenceError) in throw .noPreferencesFolder }
		}
		#expect(reported.map(\.kind) == [.syncFailed])
		#expect(SyncLedger(for: Suite.of(suite.defaults))[name] == earlier)

		var stored = false
		ledger.save { () throws(Defaults.PersistenceError) in stored = true }
		#expect(stored)
		let reread = SyncLedger(for: Suite.of(suite.defaults))
		#expect(reread[name] == later)
		#expect(reread.follows(name))
	}
}
