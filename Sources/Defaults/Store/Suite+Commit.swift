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
	are applied one by one, as writes would be. A commit that would pass the
	suite's size budget throws ``Defaults/PersistenceError/sizeBudgetExceeded(key:size:budget:)``
	and changes nothing.
	*/
	@discardableResult
	func commit(_ decide: @escaping SuiteFile.CommitDecision) throws(Defaults.PersistenceError) -> [String: PropertyListValue?] {
		let committed: [String: PropertyListValue?]
		if let file {
			committed = try file.commit(decide)
		} else {
			var current: [String: PropertyListValue] = [:]
			for name in values.storedNames() {
				current[name] = values.ownObject(forKey: name).flatMap(PropertyListValue.init)
			}

			committed = decide(current)
			// All or nothing, as with a file: checked as a whole, then applied without a check per change.
			if let violation = sizeViolation(ofCommitting: committed, over: current) {
				throw violation.persistenceError(path: displayName)
			}

			for (name, value) in committed {
				change(name, to: value?.object, origin: .local, isWithinBudget: true)
			}

			return committed
		}

		for (name, value) in committed {
			syncLink?.recordLocalChange(name, to: value?.object, in: self)
		}

		return committed
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
