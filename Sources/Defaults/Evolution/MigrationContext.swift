import Foundation

extension Defaults {
	/**
	The suite's stored values as a migration sees and changes them.

	It starts as the suite was stored when ``Defaults/migrate(_:suite:)``
	began and carries each migration's changes to the next; nothing reaches
	the suite until every migration has returned, and then all of it at once.
	Values read here are the suite's own, stored ones: registered defaults,
	launch arguments and the global domain are left out, so a migration sees
	what the user had.

	```swift
	let migration = Defaults.Migration(version: 5) { settings in
		// Read as it was stored then: any type the library can decode, or the raw property-list object.
		let wasDark = try settings.value(Bool.self, forKey: "darkMode") ?? false
		settings.removeObject(forKey: "darkMode")
		// Write in the new form.
		try settings.set(wasDark ? "dark" : "system", forKey: "appearance")
	}
	```

	A context is only valid inside the migration it is given to.
	*/
	public final class MigrationContext {
		private var values: [String: PropertyListValue]

		/// Every name read or written here, and so every name whose change by another writer makes these migrations' changes stale.
		private(set) var dependencies = MigrationDependencies()

		/// A subscript setter cannot throw: its first failure is kept and thrown once the migration returns.
		var firstFailure: (any Error)?

		init(values: [String: PropertyListValue]) {
			self.values = values.filter { !KeyName.isReserved($0.key) }
		}

		/// The names of every value stored in the suite now, sorted.
		public var names: [String] {
			dependencies.includeEverything()
			return values.keys.sorted()
		}

		/**
		The property-list object stored under `name` (a `String`, `Int`,
		`Double`, `Bool`, `Date`, `Data`, or an array or dictionary of them),
		or `nil`.

		```swift
		let migration = Defaults.Migration(version: 2) { settings in
			if let legacy = settings.object(forKey: "colors") as? [String: String] {
				try settings.set(Array(legacy.values), forKey: "favoriteColors")
			}
		}
		```
		*/
		public func object(forKey name: String) -> Any? {
			stored(name)?.object
		}

		/**
		The value stored under `name`, decoded as `type` the way a key of that
		type decodes it, or from another form the type supports (its raw value,
		JSON or property-list `Data` as other libraries store `Codable` values,
		a keyed archive); `nil` when nothing is stored. Throws when something is
		stored that does not decode as `type`.

		```swift
		let migration = Defaults.Migration(version: 2) { settings in
			if let volume = try settings.value(Int.self, forKey: "volume") {
				try settings.set(Double(volume) / 100, forKey: "volume")   // percent to a fraction
			}
		}
		```
		*/
		public func value<Value: Defaults.Serializable>(_ type: Value.Type = Value.self, forKey name: String) throws -> Value? {
			guard let object = stored(name)?.object else {
				return nil
			}

			do {
				return try PlistCodec<Value>.resolve().decode(object)
			} catch {
				// Stored before the type's conformances changed, or by another library: that form is read too.
				guard let found = StoredFormFallback.decode(object, as: Value.self) else {
					throw error
				}

				return found.value
			}
		}

		/**
		Stores `value` under `name` in the form a key of its type stores it
		(a `nil` optional removes it).

		```swift
		let migration = Defaults.Migration(version: 2) { settings in
			try settings.set(["en", "fr"], forKey: "languages")
		}
		```
		*/
		public func set<Value: Defaults.Serializable>(_ value: Value, forKey name: String) throws {
			switch try PlistCodec<Value>.resolve().encode(value) {
			case .object(let object):
				try setObject(object, forKey: name)
			case .absent:
				removeObject(forKey: name)
			}
		}

		/**
		Stores a property-list object under `name` as it is (`nil` removes
		it); throws if it is not one.

		```swift
		let migration = Defaults.Migration(version: 2) { settings in
			try settings.setObject(["width": 800, "height": 600], forKey: "windowSize")
		}
		```
		*/
		public func setObject(_ object: Any?, forKey name: String) throws {
			guard let object else {
				removeObject(forKey: name)
				return
			}

			guard let value = PropertyListValue(object) else {
				throw SerializationError.notPropertyList(object)
			}

			store(value, as: name)
		}

		/// Removes the value stored under `name`, if any.
		public func removeObject(forKey name: String) {
			store(nil, as: name)
		}

		/**
		Moves the value stored under `name` to `newName`, unless `newName`
		already has one; `name` is removed either way.

		```swift
		let migration = Defaults.Migration(version: 2) { settings in
			settings.rename("fontSize", to: "textSize")
		}
		```
		*/
		public func rename(_ name: String, to newName: String) {
			guard name != newName, let value = stored(name) else {
				return
			}

			store(nil, as: name)
			if stored(newName) == nil {
				store(value, as: newName)
			}
		}

		/**
		Stores the values of `keys` in the form each key stores now, whatever
		form they were stored in: the raw value of a type that has since become
		`Codable`, JSON or property-list `Data` as other libraries store
		`Codable` values, a keyed archive. Keys with nothing stored are left
		alone. Throws, and the migration fails, when a stored value is in no
		form its key's type reads: nothing is lost.

		```swift
		struct Frog: Codable, Defaults.Serializable {
			var name: String
		}

		extension Defaults.Keys {
			static let frogs = Key<[Frog]>("frogs", default: [])
			static let bestFrog = Key<Frog?>("bestFrog")
		}

		let migration = Defaults.Migration(version: 1) { settings in
			// Stored by SwiftyUserDefaults as JSON `Data`; stored as these keys store them from now on.
			try settings.storeInCurrentForm([.frogs, .bestFrog])
		}
		```

		Reads of a key find those forms too (with an ``Defaults/Diagnostic/Kind/otherStoredForm``
		diagnostic, once); rewriting them here makes every process and raw
		`UserDefaults` reader see the current form at once.
		*/
		public func storeInCurrentForm(_ keys: [Defaults._AnyKey]) throws {
			for (name, key) in SettingsFile.typedKeys(keys) {
				guard let stored = stored(name) else {
					continue
				}

				do {
					store(try key.storedForm(ofStored: stored), as: name)
				} catch {
					throw Defaults.SettingsTransferError.invalidValue(key: name, reason: error.reason)
				}
			}
		}

		/**
		The value of `key` as stored now, or its default; setting it stores the
		new value in the key's form.

		```swift
		let migration = Defaults.Migration(version: 2) { settings in
			settings[.fontSize] = max(settings[.fontSize], 9)
		}
		```
		*/
		public subscript<Value: Defaults.Serializable>(key: Defaults.Key<Value>) -> Value {
			get {
				(try? value(Value.self, forKey: key.name)) ?? key.defaultValue
			}
			set {
				do {
					try set(newValue, forKey: key.name)
				} catch {
					firstFailure = firstFailure ?? error
				}
			}
		}

		/// The value stored under `name` now; the migrations depend on it from here on.
		private func stored(_ name: String) -> PropertyListValue? {
			dependencies.include(name)
			return values[name]
		}

		/// Stores `value` under `name` (`nil` removes it); the migrations depend on it from here on.
		private func store(_ value: PropertyListValue?, as name: String) {
			dependencies.include(name)
			values[name] = value
		}

		/// What the migrations changed, compared with `original`: each changed name's new value, `nil` when removed.
		func changes(since original: [String: PropertyListValue]) -> [String: PropertyListValue?] {
			var changes: [String: PropertyListValue?] = [:]
			for name in PropertyListFileContents.changedKeys(from: original.filter { !KeyName.isReserved($0.key) }, to: values) {
				changes[name] = .some(values[name])
			}

			return changes
		}
	}
}
