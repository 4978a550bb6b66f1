import DefaultsTestSupport
import Foundation
@testable import Defaults

/// The sync ledger of a test suite of its own, whose ledger file goes with it.
final class LedgerFixture {
	let suite: TestSuite
	let ledger: SyncLedger

	init(_ label: String = #function) {
		suite = TestSuite(label)
		ledger = SyncLedger(for: Suite.of(suite.defaults))
	}

	deinit {
		TestEnvironment.removeFiles(ofSuite: "\(suite.name).defaults-sync")
	}

	/// The ledger as a new process reads it from its file.
	var reread: SyncLedger {
		SyncLedger(for: Suite.of(suite.defaults))
	}

	/**
	The save after sync work, with `meanwhile` (another thread's steps) played
	while it looks at a stamp whose value is pending; every value reads as
	stored after that.
	*/
	func saveRecorded(meanwhile: () -> Void) {
		var played = false
		ledger.saveRecorded { _ in
			guard !played else {
				return false
			}

			played = true
			meanwhile()
			return true
		}
	}
}
