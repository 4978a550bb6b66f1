import DefaultsTestSupport
import DefaultsTesting
import Foundation
import Testing
@testable import Defaults

/**
Interleavings of a save on the synchroniser's queue with the flush thread
(adversarial review of 76c0726). A save takes the stamps out of the unsaved
tables, looks at each (`isPending`, outside the lock), and puts back those
still pending (`keepWaiting`): what other threads do to the same name while
the stamp is out of the tables is not seen. Each test runs the other
thread's steps inside the save's `isPending`, where they can land.
*/
@Suite("Sync ledger: races with a save that is looking")
struct SyncLedgerRaceTests {
	/**
	The key is written again and flushed while a save looks at its older
	stamp: the flush's save writes the newer stamp, then the looking save
	puts the older one back to wait (nothing newer is in `recorded`: the
	flush took it), sees the flush count move, looks again and writes the
	older stamp over the newer. The ledger file then stamps the newer value
	with the older time: after a restart, a remote entry stamped between the
	two beats the newer local value.
	*/
	@Test func anOlderStampNeverReplacesANewerSavedOne() throws {
		let fixture = LedgerFixture()
		let ledger = fixture.ledger
		let name = fixture.suite.keyName()
		let older = Defaults.SyncTimestamp(milliseconds: 2_000, counter: 0, device: "desk")
		let newer = Defaults.SyncTimestamp(milliseconds: 3_000, counter: 0, device: "desk")
		ledger.record(older, for: name)
		fixture.saveRecorded {
			// The older value is pending when looked at. Meanwhile the key is written again (stamped `newer`), and a flush
			// stores the newer value and saves its stamp.
			ledger.record(newer, for: name)
			ledger.flushEnded { _ in false }
		}

		// Any later flush of a synced value.
		ledger.flushEnded { _ in false }
		#expect(ledger[name] == newer)
		#expect(fixture.reread[name] == newer, "the ledger file stamps the stored (newer) value")
	}

	/**
	A flush refuses the value (size budget) while a save looks at its stamp:
	`forgetUnsaved` finds nothing to forget (the stamp is out of the tables),
	then the save puts it back to wait; a refusing flush stores nothing, so
	no count moves. The next flush that stores any synced value saves the
	stamp of the refused value (invariant: refused writes leave no stamp).
	*/
	@Test func aStampRefusedWhileASaveLooksIsNeverSaved() throws {
		let fixture = LedgerFixture()
		let ledger = fixture.ledger
		let name = fixture.suite.keyName()
		let other = fixture.suite.keyName()
		ledger.record(Defaults.SyncTimestamp(milliseconds: 2_000, counter: 0, device: "desk"), for: name)
		// Pending when looked at; meanwhile the flush refuses it, and the synchroniser forgets its stamp.
		fixture.saveRecorded { _ = ledger.forgetUnsaved([name]) }

		// Later, another synced value is written and stored.
		ledger.record(Defaults.SyncTimestamp(milliseconds: 3_000, counter: 0, device: "desk"), for: other)
		ledger.flushEnded { _ in false }
		#expect(ledger[name] == nil, "the refused value's stamp is forgotten")
		#expect(fixture.reread[name] == nil, "no save writes the stamp of a refused value")
	}
}
