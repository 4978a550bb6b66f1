import Foundation

extension Suite {
	/// Where a change comes from, which decides what else it touches.
	enum ChangeOrigin {
		/// This process's write: persisted, reported to the synchroniser, observed.
		case local
		/// A value pulled from the sync remote: persisted and observed, not reported back.
		case synced
	}

	/**
	Applies one change, records it for the file and for sync, and tells the
	key's observers: before it (those that asked) and after it.

	The write itself costs a few lookups whatever the size of the suite, and a
	walk of the new value to measure it; with nobody observing, nothing else
	is read. A write that would pass the suite's size budget is refused before
	anything changes (see ``Defaults/SizeBudget``); `isWithinBudget`: a change
	of a commit checked as a whole and counted already (``reserveUnfiled(_:)``),
	recorded as made without a check of its own. Returns whether the change was made (`false`:
	refused, with a diagnostic).
	*/
	@discardableResult
	func change(_ name: String, to newObject: Any?, origin: ChangeOrigin, isWithinBudget: Bool = false) -> Bool {
		let observers = observers.observers(of: name)
		if observers.contains(where: \.wantsPrior), !isForcedLocalWrite(name, origin: origin), isWithinBudget || !isRefusedBySize(name, to: newObject) {
			let prior = RawChange(name: name, oldObject: values.entry(forKey: name)?.object, newObject: newObject, isPrior: true)
			for observer in observers where observer.wantsPrior {
				observer.deliver(prior)
			}
		}

		let file = file
		if file == nil {
			prepareSizeAccount()
		}

		var flushRequest = SuiteFile.FlushRequest.none
		var refusal: Defaults.Diagnostic?
		var sizeWarning: Defaults.Diagnostic?
		var isRefusedAsForced = false
		let applied = values.apply(newObject, to: name) { value, isForced in
			// A value pulled from the remote is stored under the forced one: other machines sync it, this one keeps what it is forced to.
			if isForced, origin == .local {
				isRefusedAsForced = true
				return false
			}

			if let value, value.nestsDeeper(than: BinaryPropertyListReader.maximumValueNesting) {
				refusal = tooDeeplyNested(name)
				return false
			}

			let admission: SuiteSizeAccount.Admission
			if let file {
				admission = file.admission(ofSetting: name, to: value)
			} else if isWithinBudget {
				unfiledSize.withLock { $0.record(name, value) }
				admission = .accepted(warning: nil)
			} else {
				admission = unfiledAdmission(ofSetting: name, to: value)
			}

			switch admission {
			case .refused(let violation):
				refusal = violation.diagnostic(suite: displayName)
				return false
			case .accepted(let warning):
				sizeWarning = warning
			}

			flushRequest = file?.recordPending(name, value: value) ?? .none
			return true
		}

		guard let applied else {
			if isRefusedAsForced {
				reportForcedWrite(of: name)
			} else if let refusal {
				DiagnosticReporter.report(refusal)
			}
			return false
		}

		file?.perform(flushRequest)
		if let sizeWarning {
			DiagnosticReporter.report(sizeWarning)
		}

		if origin == .local {
			syncLink?.recordLocalChange(name, to: newObject, in: self)
		}

		let change = RawChange(name: name, oldObject: applied.oldObject, newObject: applied.newObject, isPrior: false)
		for observer in observers {
			observer.deliver(change)
		}

		return true
	}

	/// The refusal of a value nesting deeper than any file the library reads back.
	private func tooDeeplyNested(_ name: String) -> Defaults.Diagnostic {
		Defaults.Diagnostic(
			kind: .unencodableValue,
			key: name,
			message: "the value of '\(name)' nests containers more than \(BinaryPropertyListReader.maximumValueNesting) levels deep, deeper than a preferences file the library reads back; nothing was written",
			suite: displayName
		)
	}

	/// Whether a write of `name` from `origin` would be refused because an administrator forces it; asked only when a prior notification is due, as the write itself checks under the values' lock.
	private func isForcedLocalWrite(_ name: String, origin: ChangeOrigin) -> Bool {
		origin == .local && values.entry(forKey: name)?.layer == .forced
	}

	private func reportForcedWrite(of name: String) {
		let file = administrator?.file(of: name, in: .forced).map { " (\($0.path))" } ?? ""
		DiagnosticReporter.report(
			.forcedValue,
			key: name,
			suite: displayName,
			"'\(name)' of suite '\(displayName)' is forced by an administrator\(file): the write was refused, and the value stays the forced one"
		)
	}

	/**
	Applies changes other processes made to the file, which the caller (the
	file, holding its own lock) has just read: once it returns, reads see
	them. Observers are not called here; the caller delivers the returned
	notifications once it has released its lock (a prior notification then
	comes just before the change's, both after the fact).
	*/
	func applyExternalChanges(_ changes: [String: Any?]) -> [ChangeNotification] {
		let file = file
		var notifications: [ChangeNotification] = []
		for (name, newObject) in changes {
			let applied = values.apply(newObject, to: name) { _, _ in !(file?.isPending(name) ?? false) }
			guard let applied else {
				continue
			}

			let observers = observers.observers(of: name)
			if !observers.isEmpty {
				notifications.append(ChangeNotification(name: name, observers: observers, oldObject: applied.oldObject, newObject: applied.newObject))
			}
		}

		return notifications
	}

	/**
	Takes the global domain's new values; returns the notifications for the
	keys whose reads changed, to deliver once every lock is released.
	*/
	func applyGlobalValues(_ global: [String: PropertyListValue]) -> [ChangeNotification] {
		notifications(for: values.replaceGlobal(with: global))
	}

	/// The notifications of changes already applied to the values, for the keys someone observes.
	func notifications(for applied: [String: AppliedChange]) -> [ChangeNotification] {
		applied.compactMap { name, applied in
			let observers = observers.observers(of: name)
			return observers.isEmpty ? nil : ChangeNotification(name: name, observers: observers, oldObject: applied.oldObject, newObject: applied.newObject)
		}
	}

	/// Whether the suite has a value of its own for `name`: stored, or given as a launch argument.
	func hasOwnValue(forKey name: String) -> Bool {
		values.ownObject(forKey: name) != nil
	}

	/// Removes every value stored in the suite, telling each key's observers; registered defaults and the migration version stay.
	func removeAll() {
		for name in values.storedNames() where !KeyName.isReserved(name) {
			change(name, to: nil, origin: .local)
		}
	}

	/**
	Makes `object` the default of `name` in this suite. Foundation's copy gets
	it too, so raw `UserDefaults` reads see it (where, on Linux, every suite
	of the process shares it: the library's reads do not).
	*/
	func register(_ object: Any, forKey name: String) {
		values.register(object, forKey: name)
		if values is OwnedSuiteValues {
			defaults.register(defaults: [name: object])
		}
	}
}
