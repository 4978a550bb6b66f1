import Foundation

/**
The suite's size budget (``Defaults/SizeBudget``): kept by its file when it
has one (Linux), under the file's state lock a write takes anyway; by the
suite otherwise (Apple platforms, in-memory suites), measuring its values as
the binary property-list writer encodes them.
*/
extension Suite {
	var sizeBudget: Defaults.SizeBudget {
		file?.sizeBudget ?? unfiledSize.withLock { $0.budget }
	}

	func setSizeBudget(_ budget: Defaults.SizeBudget) {
		if let file {
			file.sizeBudget = budget
		} else {
			unfiledSize.withLock { $0.budget = budget }
		}
	}

	/**
	Measures the stored values of a suite without a file at its first write,
	before the values' lock is taken (``admission(ofSetting:to:)`` runs under
	it, where they cannot be read).
	*/
	func prepareSizeAccount() {
		guard unfiledSize.withLock({ $0.tally == nil }) else {
			return
		}

		let stored = values.storedValues()
		unfiledSize.withLock { account in
			if account.tally == nil {
				account.measure(stored)
			}
		}
	}

	/**
	Whether a write of `name` without a file fits the budget, recorded if it
	does; called from the values' `apply`. Foundation's copy of a domain also
	changes behind the library's back (raw `UserDefaults`, other processes):
	before it refuses or warns, the account measures the domain again, outside
	its lock (Foundation-backed values call this with no lock of ours held).
	*/
	func unfiledAdmission(ofSetting name: String, to value: PropertyListValue?) -> SuiteSizeAccount.Admission {
		var measured: [String: PropertyListValue]?
		if values is FoundationSuiteValues, unfiledSize.withLock({ $0.isDecisive(name, value) }) {
			measured = values.storedValues()
		}

		return unfiledSize.withLock { account in
			if let measured {
				account.measure(measured)
			}

			return account.admit(name, value, suite: displayName)
		}
	}

	/// Whether a write of `name` would pass the size budget; asked only when a prior notification is due, as the write itself checks under the values' lock.
	func isRefusedBySize(_ name: String, to object: Any?) -> Bool {
		let value = object.flatMap(PropertyListValue.init)
		if let file {
			return file.state.withLock { $0.size.refuses(name, value) }
		}

		prepareSizeAccount()
		return unfiledSize.withLock { $0.refuses(name, value) }
	}

	/**
	Checks a commit of a suite without a file against the budget as a whole
	and, if it fits, counts its `changes` as made at once, under the lock every
	write's admission takes: a write racing the commit's application, key by
	key, is measured with all of it. Foundation's copy of a domain is measured
	again first when the answer is a refusal or a warning, as for one write.
	The committer applies each change (``change(_:to:origin:isWithinBudget:)``)
	and then calls ``releaseUnfiled(_:of:applied:)``.
	*/
	func reserveUnfiled(_ changes: [String: PropertyListValue?]) -> SuiteSizeAccount.CommitAdmission {
		prepareSizeAccount()
		var measured: [String: PropertyListValue]?
		if values is FoundationSuiteValues, unfiledSize.withLock({ $0.isDecisive(committing: changes) }) {
			measured = values.storedValues()
		}

		return unfiledSize.withLock { account in
			if let measured {
				account.measure(measured)
			}

			return account.reserve(changes, suite: displayName)
		}
	}

	/// Ends the reservation of `name` once the commit applied it; a change the write refused (nested too deeply, forced) counts as what is stored again.
	func releaseUnfiled(_ name: String, of reservation: Int, applied: Bool) {
		let stored = applied ? nil : values.storedObject(forKey: name).flatMap(PropertyListValue.init)
		unfiledSize.withLock { account in
			account.release(name, of: reservation)
			if !applied {
				account.record(name, stored)
			}
		}
	}

	/// The warning a commit of a suite with a file crossed, if any, once the file recorded its `changes`; `previous`: the changed names' values before it.
	func sizeWarning(afterCommitting changes: [String: PropertyListValue?], to file: SuiteFile, over previous: [String: PropertyListValue]) -> Defaults.Diagnostic? {
		file.state.withLock { $0.size.warning(afterCommitting: changes, over: previous, suite: file.domainName) }
	}
}
