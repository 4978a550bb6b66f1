import Foundation

/**
The suite's size budget and the ``FileLimits/maximumFileSize`` limit on
writes: a suite file larger than the library reads back would make every
process start the suite empty, so a write that would cross it is refused
(before it changes anything, or at the flush that would merge it with other
processes' writes), and the values stay as they were.
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

	/**
	Refuses this flush's changes when, merged with what other processes wrote,
	they would make a file larger than the library reads back: the file stays
	as it is, and the values go back to the file's. Returns the names refused.
	*/
	func refuseTooLarge(
		_ pending: [(name: String, change: FlushPolicy.Change)],
		contents: inout [String: PropertyListValue],
		onDisk: [String: PropertyListValue],
		diagnostics: inout [Defaults.Diagnostic]
	) -> [String] {
		let size = SuiteFileContents.encodedSize(contents)
		let refused = pending.map(\.name).filter { contents[$0] != onDisk[$0] }.sorted()
		for name in refused {
			contents[name] = onDisk[name]
		}

		let limit = FileLimits.maximumFileSize
		diagnostics.append(Defaults.Diagnostic(
			kind: .fileSizeLimitExceeded,
			key: refused.count == 1 ? refused[0] : nil,
			message: "suite '\(domainName)': writing \(refused.joined(separator: ", ")) with what other processes stored would make \(url.path) \(size) bytes, more than the \(limit / 1024 / 1024) MiB the library reads back; the changes were refused, and the values are the file's again"
		))
		return refused
	}
}
