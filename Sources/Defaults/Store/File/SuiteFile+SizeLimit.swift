import Foundation

/**
The suite's size budget and the ``FileLimits/maximumFileSize`` limit on
writes: a suite file larger than the library reads back would make every
process start the suite empty, so a write that would cross it is refused
(before it changes anything, or at the flush that would merge it with other
processes' writes: ``SuiteFileMerge``), and the values stay as they were.
*/
extension SuiteFile {
	/**
	Whether a write of `name` fits the suite's size budget and the file limit,
	decided before anything changes and recorded if it does; called under the
	suite's values lock, before ``recordPending(_:value:)``. Exact and cheap:
	the suite's size is kept entry by entry (``SuiteSizeTally``), so a write
	costs a walk of its own value.
	*/
	func admission(ofSetting name: String, to value: PropertyListValue?) -> SuiteSizeAccount.Admission {
		state.withLock { $0.size.admit(name, value, suite: domainName) }
	}

	/// The suite's size budget; setting one arms its warning again.
	var sizeBudget: Defaults.SizeBudget {
		get { state.withLock { $0.size.budget } }
		set { state.withLock { $0.size.budget = newValue } }
	}
}
