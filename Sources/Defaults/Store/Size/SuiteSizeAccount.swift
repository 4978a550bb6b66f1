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

	/// The changes of commits checked as a whole and not applied yet, by commit (``reserve(_:suite:)``): counted as made, even when the values are measured again.
	private var reservations: [Int: [String: SuiteSizeTally.Shape?]] = [:]
	private var nextReservation = 0

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
		return .accepted(warning: warning(crossedBy: CollectionOfOne(name), from: prospect.current, to: prospect.size, suite: suite))
	}

	enum CommitAdmission {
		/// The commit may go ahead: its changes count as made until ``release(_:of:)`` says each is; report `warning`, if any, once they are applied.
		case reserved(Int, warning: Defaults.Diagnostic?)
		case refused(SizeBudgetViolation)
	}

	/**
	Whether a commit's `changes` (`nil`: removed) may go ahead as a whole, for
	a suite that applies them one by one (no file); if they may, they count as
	made at once, so a write racing their application is admitted or refused
	with all of them, and the warning is decided once, for the whole commit.
	The committer applies each change, ``record(_:_:)``s it as any write, and
	releases it.
	*/
	mutating func reserve(_ changes: [String: PropertyListValue?], suite: String) -> CommitAdmission {
		if tally == nil {
			tally = SuiteSizeTally()
		}

		let before = tally?.size ?? 0
		var shapes: [String: SuiteSizeTally.Shape?] = [:]
		var previous: [String: SuiteSizeTally.Shape?] = [:]
		for (name, value) in changes {
			let shape = SuiteSizeTally.shape(of: name, value)
			shapes.updateValue(shape, forKey: name)
			previous.updateValue(tally?.shapes[name], forKey: name)
			tally?.set(name, shape)
		}

		if let tally, let violation = violation(ofChanging: changes.keys, in: tally, sizeBefore: before) {
			// Refused: the tally is as it was.
			for (name, shape) in previous {
				self.tally?.set(name, shape)
			}

			return .refused(violation)
		}

		let reservation = nextReservation
		nextReservation &+= 1
		reservations[reservation] = shapes
		return .reserved(reservation, warning: warning(crossedBy: changes.keys, from: before, to: tally?.size ?? 0, suite: suite))
	}

	/// Whether a commit's `changes` would be refused or warned about, deciding nothing: what a store others also write measures again first.
	func isDecisive(committing changes: [String: PropertyListValue?]) -> Bool {
		var trial = self
		switch trial.reserve(changes, suite: "") {
		case .refused:
			return true
		case .reserved(_, let warning):
			return warning != nil
		}
	}

	/// Ends the reservation of `name` by the commit `reservation` once the commit applied it (or a write refused it).
	mutating func release(_ name: String, of reservation: Int) {
		reservations[reservation]?.removeValue(forKey: name)
		if reservations[reservation]?.isEmpty == true {
			reservations[reservation] = nil
		}
	}

	/**
	The warning a commit crossed, if any, once its `changes` are recorded (a
	suite with a file records them as it writes them): `previous` holds the
	changed names' values before it. Reported once, as for a single write.
	*/
	mutating func warning(afterCommitting changes: [String: PropertyListValue?], over previous: [String: PropertyListValue], suite: String) -> Defaults.Diagnostic? {
		guard !changes.isEmpty, let after = tally?.size else {
			return nil
		}

		// The size before the commit: its entries taken back for a moment, in place.
		var committed: [String: SuiteSizeTally.Shape?] = [:]
		for name in changes.keys {
			committed.updateValue(tally?.shapes[name], forKey: name)
			tally?.set(name, SuiteSizeTally.shape(of: name, previous[name]))
		}

		let before = tally?.size ?? 0
		for (name, shape) in committed {
			tally?.set(name, shape)
		}

		return warning(crossedBy: changes.keys, from: before, to: after, suite: suite)
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

	/// Forgets what was measured: the owner measures again at the next use (the values it measured were replaced).
	mutating func forgetMeasurement() {
		tally = nil
	}

	/// Takes the values as measured again from scratch (first use, or a store others write behind the library's back), with the changes of commits not applied yet.
	mutating func measure(_ contents: [String: PropertyListValue]) {
		tally = SuiteSizeTally(contents)
		for shapes in reservations.values {
			for (name, shape) in shapes {
				tally?.set(name, shape)
			}
		}

		rearmIfRoom()
	}

	/**
	The budget a commit's result would pass, if any: `contents` are the
	suite's stored values with the commit's `changes` applied, `before` its
	size without them.
	*/
	func violation(ofCommitting changes: Set<String>, giving contents: [String: PropertyListValue], sizeBefore before: Int64) -> SizeBudgetViolation? {
		violation(ofChanging: changes, in: SuiteSizeTally(contents), sizeBefore: before)
	}

	/// The budget `tally`, the suite with a commit's changes of `names` made, passes, if any; `before`: its size without them.
	private func violation(ofChanging names: some Collection<String>, in tally: SuiteSizeTally, sizeBefore before: Int64) -> SizeBudgetViolation? {
		let size = tally.size
		// The largest changed entry is the only one the per-value budget can refuse (of equal ones, the first name).
		let largest = names
			.compactMap { name in tally.bytes(ofEntry: name).map { (name: name, bytes: $0) } }
			.max { $0.bytes != $1.bytes ? $0.bytes < $1.bytes : $0.name > $1.name }
		if size > before, let largest, largest.bytes > Int64(budget.perValue) {
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

	/// The warning a write of `names` (one, or a commit's) that made the suite `new` bytes from `old` crossed, if any; disarms it.
	private mutating func warning(crossedBy names: some Collection<String>, from old: Int64, to new: Int64, suite: String) -> Defaults.Diagnostic? {
		let threshold = budget.warningSize
		guard isWarningArmed, new >= threshold, new > old else {
			rearmIfRoom()
			return nil
		}

		isWarningArmed = false
		let percent = Int((Double(new) * 100 / Double(max(budget.perSuite, 1))).rounded(.down))
		let sorted = names.sorted()
		let written = sorted.count == 1
			? "'\(sorted[0])'"
			: "\(sorted.count) keys at once (\(sorted.prefix(3).map { "'\($0)'" }.joined(separator: ", "))\(sorted.count > 3 ? ", …" : ""))"
		return Defaults.Diagnostic(
			kind: .sizeBudgetWarning,
			key: sorted.count == 1 ? sorted[0] : nil,
			message: "suite '\(suite)' is \(new) bytes after writing \(written), \(percent)% of its size budget of \(budget.perSuite) bytes (warned at \(threshold)); writes past the budget will be refused. Reported once, until the suite is under \(rearmSize) bytes again"
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
