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
	Applies one change, has the suite's backing admit and record it
	(``SuiteBacking``), records it for sync, and tells the key's observers:
	before it (those that asked) and after it.

	The write itself costs a few lookups whatever the size of the suite, and a
	walk of the new value to measure it; with nobody observing, nothing else
	is read. A write that would pass the suite's size budget is refused before
	anything changes (see ``Defaults/SizeBudget``); `isWithinBudget`: a change
	of a commit checked as a whole and counted already (``UnfiledBacking``),
	recorded as made without a check of its own. Returns whether the change
	was made (`false`: refused, with a diagnostic).
	*/
	@discardableResult
	func change(_ name: String, to newObject: Any?, origin: ChangeOrigin, isWithinBudget: Bool = false) -> Bool {
		let backing = backing
		let observers = observers.observers(of: name)
		if observers.contains(where: \.wantsPrior) {
			announce(name, to: newObject, origin: origin, isWithinBudget: isWithinBudget, to: observers, backing: backing)
		}

		backing.prepareToAdmit()
		var admission: WriteAdmission?
		let applied = values.apply(newObject, to: name, reporting: !observers.isEmpty) { value, isForced in
			let decided = admit(name, to: value, isForced: isForced, origin: origin, isWithinBudget: isWithinBudget, backing: backing)
			admission = decided
			return decided.isAccepted
		}

		guard let applied, case .accepted(let warning, let flush)? = admission else {
			reportRefusal(admission, of: name)
			return false
		}

		// Stamped before the flush it may ask for: a write-through flush that stores the value saves its stamp, and one
		// whose merge refuses the value forgets that stamp, not an earlier one.
		if origin == .local {
			syncLink?.recordLocalChange(name, to: newObject, in: self)
		}

		backing.perform(flush)
		if let warning {
			DiagnosticReporter.report(warning)
		}

		if !observers.isEmpty {
			let change = RawChange(name: name, oldObject: applied.oldObject, newObject: applied.newObject, isPrior: false)
			for observer in observers {
				observer.deliver(change)
			}
		}

		return true
	}

	/// Tells the observers that asked for it that `name` is about to change, unless the write will be refused (forced, or past the size budget).
	private func announce(_ name: String, to newObject: Any?, origin: ChangeOrigin, isWithinBudget: Bool, to observers: [ObserverTable.Observer], backing: any SuiteBacking) {
		guard !isForcedLocalWrite(name, origin: origin), isWithinBudget || !backing.wouldRefuse(name, to: newObject.flatMap(PropertyListValue.init)) else {
			return
		}

		let prior = RawChange(name: name, oldObject: values.entry(forKey: name)?.object, newObject: newObject, isPrior: true)
		for observer in observers where observer.wantsPrior {
			observer.deliver(prior)
		}
	}

	/// Whether a write of `name` from `origin` would be refused because an administrator forces it; asked only when a prior notification is due, as the write itself checks under the values' lock.
	private func isForcedLocalWrite(_ name: String, origin: ChangeOrigin) -> Bool {
		origin == .local && values.entry(forKey: name)?.layer == .forced
	}

	/**
	Applies changes other processes made to the file, which the caller (the
	file, holding its own lock) has just read: once it returns, reads see
	them. Observers are not called here; the caller delivers the returned
	notifications once it has released its lock (a prior notification then
	comes just before the change's, both after the fact).
	*/
	func applyExternalChanges(_ changes: [String: Any?]) -> [ChangeNotification] {
		let backing = backing
		var notifications: [ChangeNotification] = []
		for (name, newObject) in changes {
			// Looked up after the change: an observer added meanwhile read the new value already, or hears it.
			let applied = values.apply(newObject, to: name) { _, _ in !backing.isPending(name) }
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
		if registersWithFoundation {
			defaults.register(defaults: [name: object])
		}
	}
}
