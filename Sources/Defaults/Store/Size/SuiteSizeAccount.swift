import Foundation

/**
A suite's size policy: its budget, the exact size of its stored values
(``SuiteSizeTally``) and whether the warning is armed. Decides whether a write
may go ahead, and what to report; does no I/O and takes no lock (its owner,
the suite's file or the suite, keeps it under a lock it already holds).
*/
struct SuiteSizeAccount: Sendable {
	var budget: Defaults.SizeBudget {
		didSet { isWarningArmed = true }
	}

	/// The stored values' size as the account knows it; `nil` until first measured (suites without a file measure at their first write).
	private(set) var tally: SuiteSizeTally?
	/// Whether the next write past the warning size is reported; disarmed by that report, armed again by falling back under 90% of that size or a new budget.
	private(set) var isWarningArmed = true

	/// A limit that holds whatever the budget: the 64 MiB the library reads back, for a suite with a file.
	let hardLimit: Int64?

	init(budget: Defaults.SizeBudget, hardLimit: Int64?, tally: SuiteSizeTally? = nil) {
		self.budget = budget
		self.hardLimit = hardLimit
		self.tally = tally
	}

	enum Admission {
		/// The write may go ahead; report `warning`, if any, once it is done.
		case accepted(warning: Defaults.Diagnostic?)
		case refused(SizeBudgetViolation)
	}

	/**
	Whether `name` may be set to `value` (`nil`: removed), and if so, records
	it. Only growth is refused: a value stored already, or a suite already
	past a budget lowered since, stays; a write that shrinks it is taken.
	*/
	mutating func admit(_ name: String, _ value: PropertyListValue?, suite: String) -> Admission {
		if tally == nil {
			tally = SuiteSizeTally()
		}

		guard let prospect = tally?.prospect(name, SuiteSizeTally.shape(of: name, value)) else {
			return .accepted(warning: nil)
		}

		if let violation = violation(key: name, size: prospect.size, entry: prospect.entry, current: prospect.current) {
			return .refused(violation)
		}

		// Changed in place: a copy taken out and stored back would copy every entry at each write.
		tally?.apply(prospect, to: name)
		return .accepted(warning: warning(crossedBy: name, from: prospect.current, to: prospect.size, suite: suite))
	}

	/// Whether a write of `name` would be refused or warned about: what a store others also write measures again first.
	func isDecisive(_ name: String, _ value: PropertyListValue?) -> Bool {
		let prospect = (tally ?? SuiteSizeTally()).prospect(name, SuiteSizeTally.shape(of: name, value))
		return violation(key: name, size: prospect.size, entry: prospect.entry, current: prospect.current) != nil
			|| (isWarningArmed && prospect.size >= budget.warningSize && prospect.size > prospect.current)
	}

	/// Whether a write of `name` would be refused, deciding nothing: asked before a prior notification, which a refused write must not send.
	func refuses(_ name: String, _ value: PropertyListValue?) -> Bool {
		let prospect = (tally ?? SuiteSizeTally()).prospect(name, SuiteSizeTally.shape(of: name, value))
		return violation(key: name, size: prospect.size, entry: prospect.entry, current: prospect.current) != nil
	}

	/// Records a change decided elsewhere (checked as part of a commit, or made by another process).
	mutating func record(_ name: String, _ value: PropertyListValue?) {
		tally?.set(name, to: value)
		rearmIfRoom()
	}

	/// Takes the values as measured again from scratch (first use, or a store others write behind the library's back).
	mutating func measure(_ contents: [String: PropertyListValue]) {
		tally = SuiteSizeTally(contents)
		rearmIfRoom()
	}

	/**
	The budget a commit's result would pass, if any: `contents` are the
	suite's stored values with the commit's `changes` applied, `before` its
	size without them.
	*/
	func violation(ofCommitting changes: Set<String>, giving contents: [String: PropertyListValue], sizeBefore before: Int64) -> SizeBudgetViolation? {
		let tally = SuiteSizeTally(contents)
		let size = tally.size
		// Largest first: the largest changed entry is the only one the per-value budget can refuse.
		if size > before, let largest = tally.entries.first(where: { changes.contains($0.name) }), largest.bytes > Int64(budget.perValue) {
			return SizeBudgetViolation(key: largest.name, size: largest.bytes, limit: Int64(budget.perValue), scope: .value)
		}

		// Several changes make the suite's size: no one key is named.
		return violation(key: nil, size: size, entry: 0, current: before)
	}

	private func violation(key: String?, size: Int64, entry: Int64, current: Int64) -> SizeBudgetViolation? {
		// Only growth is refused: a removal or a smaller rewrite always makes room, even past a budget lowered since.
		guard size > current else {
			return nil
		}

		if entry > Int64(budget.perValue) {
			return SizeBudgetViolation(key: key, size: entry, limit: Int64(budget.perValue), scope: .value)
		}

		if size > Int64(budget.perSuite) {
			return SizeBudgetViolation(key: key, size: size, limit: Int64(budget.perSuite), scope: .suite)
		}

		if let hardLimit, size > hardLimit {
			return SizeBudgetViolation(key: key, size: size, limit: hardLimit, scope: .file)
		}

		return nil
	}

	private mutating func warning(crossedBy name: String, from old: Int64, to new: Int64, suite: String) -> Defaults.Diagnostic? {
		let threshold = budget.warningSize
		guard isWarningArmed, new >= threshold, new > old else {
			rearmIfRoom()
			return nil
		}

		isWarningArmed = false
		let percent = Int((Double(new) * 100 / Double(max(budget.perSuite, 1))).rounded(.down))
		return Defaults.Diagnostic(
			kind: .sizeBudgetWarning,
			key: name,
			message: "suite '\(suite)' is \(new) bytes after writing '\(name)', \(percent)% of its size budget of \(budget.perSuite) bytes (warned at \(threshold)); writes past the budget will be refused. Reported once, until the suite is under \(rearmSize) bytes again"
		)
	}

	private var rearmSize: Int64 {
		budget.warningSize - budget.warningSize / 10
	}

	private mutating func rearmIfRoom() {
		if !isWarningArmed, let size = tally?.size, size < rearmSize {
			isWarningArmed = true
		}
	}
}

/// A change refused because it would pass a budget: which key (if one), the size it would make and the limit.
struct SizeBudgetViolation: Sendable, Equatable {
	enum Scope: Sendable {
		/// One value would pass ``Defaults/SizeBudget/perValue``.
		case value
		/// The suite would pass ``Defaults/SizeBudget/perSuite``.
		case suite
		/// The suite's file would pass the 64 MiB the library reads back (a budget set larger than that).
		case file
	}

	let key: String?
	/// The value's size (``Scope/value``) or the suite's.
	let size: Int64
	let limit: Int64
	let scope: Scope

	/// The refusal of a write, as a diagnostic.
	func diagnostic(suite: String) -> Defaults.Diagnostic {
		Defaults.Diagnostic(
			kind: scope == .file ? .fileSizeLimitExceeded : .sizeBudgetExceeded,
			key: key,
			message: "suite '\(suite)': \(explanation(writing: key.map { "'\($0)'" } ?? "the changes")); the write was refused, and the value stays as it was"
		)
	}

	/// The refusal of a commit, as its error.
	func persistenceError(path: String) -> Defaults.PersistenceError {
		scope == .file ? .fileWouldBeTooLarge(path: path, size: size, limit: limit) : .sizeBudgetExceeded(key: key, size: size, budget: limit)
	}

	/// What passes which limit, for messages: "writing 'x' would make it 5000 bytes, more than the per-value budget of 4096 bytes".
	func explanation(writing what: String) -> String {
		switch scope {
		case .value:
			"writing \(what) would make it \(size) bytes, more than the per-value size budget of \(limit) bytes"
		case .suite:
			"writing \(what) would make the suite \(size) bytes, more than its size budget of \(limit) bytes"
		case .file:
			"writing \(what) would make the suite's file \(size) bytes, more than the \(limit / 1024 / 1024) MiB the library reads back"
		}
	}
}
