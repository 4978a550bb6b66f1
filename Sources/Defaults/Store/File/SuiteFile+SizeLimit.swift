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
	Refuses this flush's changes that grow the file past a limit once merged
	with what other processes wrote: the ``FileLimits/maximumFileSize`` the
	library reads back, or the suite's size budget (each process admits a
	write against the file as it knows it, so two processes growing different
	keys could each stay within the budget and pass it together). Only growing
	changes are refused (a removal or a smaller value always goes through),
	all of them: the file stays within its limits, and their values go back to
	the file's. Returns what was refused, as the error ``Defaults/flush(suite:)``
	throws, or `nil` when everything fits.
	*/
	func refuseGrowthPastLimits(
		_ pending: [(name: String, change: FlushPolicy.Change)],
		contents: inout [String: PropertyListValue],
		onDisk: [String: PropertyListValue],
		diagnostics: inout [Defaults.Diagnostic]
	) -> (names: [String], error: Defaults.PersistenceError)? {
		let budget = state.withLock { $0.size.budget }
		let size = PropertyListFileContents.encodedSize(contents)
		let hardLimit = FileLimits.maximumFileSize
		guard size > hardLimit || (size > Int64(budget.perSuite) && size > PropertyListFileContents.encodedSize(onDisk)) else {
			return nil
		}

		func entrySize(_ value: PropertyListValue?) -> Int {
			value.map(BinaryPropertyListWriter.encodedSize(of:)) ?? 0
		}

		var refused = pending.map(\.name).filter { contents[$0] != onDisk[$0] && entrySize(contents[$0]) > entrySize(onDisk[$0]) }
		for name in refused {
			contents[name] = onDisk[name]
		}

		// Entry sizes do not add up exactly (reference widths grow with the file): if what is left still passes, nothing of this flush goes.
		let rest = PropertyListFileContents.encodedSize(contents)
		if rest > hardLimit || (rest > Int64(budget.perSuite) && rest > PropertyListFileContents.encodedSize(onDisk)) {
			let others = pending.map(\.name).filter { contents[$0] != onDisk[$0] }
			for name in others {
				contents[name] = onDisk[name]
			}
			refused += others
		}

		refused.sort()
		let isTooLarge = size > hardLimit
		let limit = isTooLarge ? hardLimit : Int64(budget.perSuite)
		let limitText = isTooLarge ? "the \(hardLimit / 1024 / 1024) MiB the library reads back" : "its size budget of \(limit) bytes"
		diagnostics.append(Defaults.Diagnostic(
			kind: isTooLarge ? .fileSizeLimitExceeded : .sizeBudgetExceeded,
			key: refused.count == 1 ? refused[0] : nil,
			message: "suite '\(domainName)': writing \(refused.joined(separator: ", ")) with what other processes stored would make \(url.path) \(size) bytes, more than \(limitText); the changes were refused, and the values are the file's again"
		))
		let error: Defaults.PersistenceError = isTooLarge
			? .fileWouldBeTooLarge(path: url.path, size: size, limit: limit)
			: .sizeBudgetExceeded(key: refused.count == 1 ? refused[0] : nil, size: size, budget: limit)
		return (refused, error)
	}
}
