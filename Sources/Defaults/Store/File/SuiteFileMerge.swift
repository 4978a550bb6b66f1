import Foundation

/**
What a flush writes, decided under the inter-process lock from the file as
found there: this process's pending changes over what other processes wrote,
then a commit's changes, with the growth past the file's limits refused.

A function of values: no file, lock or clock. `SuiteFile+Write` reads the
file before it and replaces the file after it, so every rule of the merge is
tested without a disk (`SuiteFileMergeTests`).
*/
struct SuiteFileMerge {
	/// What the file is to hold.
	let contents: [String: PropertyListValue]
	/// The changes a commit made (`nil`: removed); empty without a commit.
	let committed: [String: PropertyListValue?]
	/**
	The pending changes refused because, merged with what other processes
	wrote, they would grow the file past a limit (their values in `contents`
	are the file's again), with the error ``SuiteFile/flush()`` throws for them.
	*/
	let refused: (names: [String], error: Defaults.PersistenceError)?
	/// What to report: the refusal, when there is one.
	let diagnostics: [Defaults.Diagnostic]
	/// The names this flush writes: the pending ones and the committed ones.
	let written: Set<String>
	/// The file as found under the lock.
	let onDisk: [String: PropertyListValue]

	/**
	Merges `pending` over `onDisk`, then what `commit` decides over that.

	- Parameters:
	  - writtenAhead: What a write ahead of the lock prepared from this same
	    version of the file: `onDisk` with `pending` applied, within the limits
	    (it was prepared only if it fits). Taken as it is, which spares a copy
	    of the whole suite.
	  - size: The suite's size account: its budget, and a commit's admission.
	  - suite: The suite's name, for messages.
	  - path: The file's path, for messages and errors.
	- Throws: When a commit would pass the budget: a commit is all or nothing,
	  so none of its changes is written.
	*/
	init(
		pending: [(name: String, change: FlushPolicy.Change)],
		onto onDisk: [String: PropertyListValue],
		writtenAhead: [String: PropertyListValue]? = nil,
		committing commit: SuiteFile.CommitDecision? = nil,
		size: SuiteSizeAccount,
		suite: String,
		path: String
	) throws(Defaults.PersistenceError) {
		var contents = onDisk
		if let writtenAhead {
			contents = writtenAhead
		} else {
			for (name, change) in pending {
				contents[name] = change.value
			}
		}

		var committed: [String: PropertyListValue?] = [:]
		if let commit {
			let before = contents
			committed = commit(contents)
			for (name, value) in committed {
				contents[name] = value
			}

			if !committed.isEmpty, let violation = size.violation(ofCommitting: Set(committed.keys), giving: contents, sizeBefore: SuiteSizeTally(before).size) {
				throw violation.persistenceError(path: path)
			}
		}

		var diagnostics: [Defaults.Diagnostic] = []
		// A write ahead fits (it is prepared only within the limits, over the file as it still is); a commit's result is checked as a whole above.
		let refused = commit == nil && writtenAhead == nil
			? Self.refuseGrowthPastLimits(pending, contents: &contents, onDisk: onDisk, budget: size.budget, diagnostics: &diagnostics, suite: suite, path: path)
			: nil
		self.contents = contents
		self.committed = committed
		self.refused = refused
		self.diagnostics = diagnostics
		self.written = Set(pending.map(\.name)).union(committed.keys)
		self.onDisk = onDisk
	}

	/// Whether a written name's value differs from the file's: only then is the file replaced. Only the written names can differ, so the whole suite is not walked.
	var changesTheFile: Bool {
		written.contains { contents[$0] != onDisk[$0] }
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
	private static func refuseGrowthPastLimits(
		_ pending: [(name: String, change: FlushPolicy.Change)],
		contents: inout [String: PropertyListValue],
		onDisk: [String: PropertyListValue],
		budget: Defaults.SizeBudget,
		diagnostics: inout [Defaults.Diagnostic],
		suite: String,
		path: String
	) -> (names: [String], error: Defaults.PersistenceError)? {
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
			message: "suite '\(suite)': writing \(refused.joined(separator: ", ")) with what other processes stored would make \(path) \(size) bytes, more than \(limitText); the changes were refused, and the values are the file's again"
		))
		let error: Defaults.PersistenceError = isTooLarge
			? .fileWouldBeTooLarge(path: path, size: size, limit: limit)
			: .sizeBudgetExceeded(key: refused.count == 1 ? refused[0] : nil, size: size, budget: limit)
		return (refused, error)
	}
}
