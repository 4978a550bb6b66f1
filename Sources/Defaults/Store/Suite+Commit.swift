import Foundation

extension Suite {
	/**
	Changes several keys as one step, decided from the suite's stored values
	as they are at that moment (see ``SuiteFile/CommitDecision``): other
	processes see all of the changes or none, and observers hear each once it
	is done. Returns the changes made.

	With a file (Linux) the decision is taken under the inter-process lock and
	the changes are written in one atomic replace; without one (Apple
	platforms, in-memory suites, a suite whose file cannot be determined) they
	are applied one by one, as writes would be (``SuiteBacking/commit(_:in:)``).
	A commit that would pass the suite's size budget throws
	``Defaults/PersistenceError/sizeBudgetExceeded(key:size:budget:)`` and
	changes nothing; one that crosses its warning size reports it once, as a
	write does.
	*/
	@discardableResult
	func commit(_ decide: @escaping SuiteFile.CommitDecision) throws(Defaults.PersistenceError) -> [String: PropertyListValue?] {
		try backing.commit(decide, in: self)
	}

	/**
	Moves the value of a key stored under one of `previousNames` to `name`,
	when `name` has none: the first previous name that has a value gives it,
	and every previous name is removed, in one commit. Nothing happens when
	`name` has a value (it was moved already, or written since).
	*/
	func adoptValue(of previousNames: [String], as name: String) {
		let previousNames = previousNames.filter { $0 != name }
		// The usual case costs two lookups: nothing stored under an old name.
		guard values.storedObject(forKey: name) == nil, previousNames.contains(where: { values.storedObject(forKey: $0) != nil }) else {
			return
		}

		do {
			let moved = try commit { stored in
				guard stored[name] == nil, let value = previousNames.lazy.compactMap({ stored[$0] }).first else {
					return [:]
				}

				var changes: [String: PropertyListValue?] = [name: value]
				for previous in previousNames where stored[previous] != nil {
					changes[previous] = .some(nil)
				}

				return changes
			}
			if !moved.isEmpty {
				syncLink?.retire(previousNames.filter { moved.keys.contains($0) }, in: self)
			}
		} catch {
			DiagnosticReporter.report(.persistenceFailed, key: name, "the value stored under a previous name (\(previousNames.joined(separator: ", "))) could not be moved to '\(name)': \(error); it is tried again the next time the key is created")
		}
	}
}
