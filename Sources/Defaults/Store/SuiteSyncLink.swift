/**
What a suite tells the synchroniser that syncs keys of it: the one seam
between the suite and sync.

The suite reports every change the library makes to it locally (not the
changes sync applies, so nothing echoes) and the previous names a rename
emptied; the link decides which of them are synced keys. It is called after
the suite's locks are released.
*/
protocol SuiteSyncLink: AnyObject, Sendable {
	/// The library changed `name` in `suite` locally, to `object` (`nil`: removed or reset).
	func recordLocalChange(_ name: String, to object: Any?, in suite: Suite)

	/// A rename moved the values of `names`, previous names of a key, away: their removal is to be published.
	func retire(_ names: [String], in suite: Suite)

	/// A flush of the suite's file ended, whatever it stored: timestamps whose values are stored now may be saved.
	func flushEnded(in suite: Suite)

	/// A flush refused this process's values of `names` (they read the file's values again): their timestamps are not theirs.
	func valuesRefused(_ names: [String], in suite: Suite)
}
