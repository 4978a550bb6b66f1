import Foundation

/**
What keeps a suite's changes, chosen once when the suite is made: its file
(``SuiteFile``, Linux) or memory (``UnfiledBacking``: an in-memory suite, a
suite whose file cannot be determined, or Foundation's store on Apple
platforms). Every answer that depends on it comes from it — a write's size
admission and pending change, a commit, a flush, the migration lock, the size
budget — so the suite never asks whether it has a file.

<!-- check: internal -->
```swift
let backing = suite.backing
backing.prepareToAdmit()
try backing.flush()
```
*/
protocol SuiteBacking: AnyObject, Sendable {
	/// The suite's size budget (``Defaults/SizeBudget``); setting one arms its warning again.
	var sizeBudget: Defaults.SizeBudget { get set }

	/// Called at each write before the values' lock is taken: whatever ``admit(_:to:isWithinBudget:)`` needs that cannot be read under it.
	func prepareToAdmit()

	/**
	Under the values' lock: whether the write of `name` to `value` fits the
	size budget and, if it does, records it (counted, and pending for the
	file) and says what flush it asks for. `isWithinBudget`: a change of a
	commit checked as a whole and counted already.
	*/
	func admit(_ name: String, to value: PropertyListValue?, isWithinBudget: Bool) -> WriteAdmission

	/// Carries out the flush an admitted write asked for, once the values' lock is released.
	func perform(_ request: FlushPolicy.Action)

	/// Whether `name` has a change of this process's not written yet, which another process's change must not replace.
	func isPending(_ name: String) -> Bool

	/// Whether a write of `name` would pass the size budget; asked only when a prior notification is due, as the write itself checks under the values' lock.
	func wouldRefuse(_ name: String, to value: PropertyListValue?) -> Bool

	/**
	Changes several keys of `suite` as one step, decided from its stored
	values as they are at that moment; observers and the suite's sync link
	hear each change. Returns the changes made; throws, changing nothing, when
	they would pass the size budget or cannot be written.
	*/
	func commit(_ decide: @escaping SuiteFile.CommitDecision, in suite: Suite) throws(Defaults.PersistenceError) -> [String: PropertyListValue?]

	/// Writes the pending changes durably; throws why they cannot be.
	func flush() throws(Defaults.PersistenceError)

	/// Runs `body` holding the suite's migration lock: migrations of a suite never run at once, in this process or (with a file) in another.
	func withMigrationLock<Result>(_ body: () throws(Defaults.MigrationError) -> Result) throws(Defaults.MigrationError) -> Result

	/// Starts what the suite needs once it is registered: with a file, flushing at exit and watching the file.
	func start()
}
