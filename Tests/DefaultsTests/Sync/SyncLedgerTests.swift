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
}
