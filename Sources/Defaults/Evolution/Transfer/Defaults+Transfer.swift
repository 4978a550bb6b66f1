import Foundation

extension Defaults {
	/// The file format of an export: ``json`` for people to read and edit, ``propertyList`` for an exact copy.
	public enum SettingsFormat: Sendable, Hashable {
		/**
		A JSON object with one member per key. Values of the keys you name are
		written as their types encode them (`Codable` values as JSON objects,
		dates in ISO 8601, to the millisecond); other values as stored, with
		`Data` as `{"$data": "<base64>"}` and dates as `{"$date": "…"}`.
		Integers stay exact, a `UInt64` above `Int64.max` too. A dictionary of
		yours whose only key looks like a tag (`$data`, `$date`, or either with
		more `$`s in front) gets one more `$` in front of it (`{"$$date": …}`),
		which an import takes away again: it never reads back as `Data` or a date.
		*/
		case json

		/// A binary property list holding every value exactly as it is stored (dates to the microsecond), which `defaults import` reads too.
		case propertyList
	}

	/// Why an export or an import did not happen. Nothing was written.
	public enum SettingsTransferError: Error, Sendable, CustomStringConvertible {
		/// The data is not a settings file: not JSON or a property list, or not a dictionary of values.
		case unreadable(reason: String)
		/// A value does not fit: for an import, it does not decode as its key's type; for an export, the format cannot hold it (JSON has no NaN).
		case invalidValue(key: String, reason: String)
		/// A name no key can have (empty, with a `.`, starting with `@`, not ASCII; see ``Defaults/Key``): `reason` says which rule it breaks. Neither imported nor exported, so every export can be imported.
		case invalidKeyName(String, reason: String)
		/// The keys to export belong to more than one suite.
		case mixedSuites
		/// The imported values would pass the suite's size budget (``Defaults/SizeBudget``): the value of `key` would be `size` bytes, or the suite would (`key` is `nil`), more than `budget`. Nothing was imported.
		case sizeBudgetExceeded(key: String?, size: Int, budget: Int)
		/// The imported values could not be written: the suite is as it was.
		case persistence(PersistenceError)

		/// One line naming the key, if any, and what is wrong.
		public var description: String {
			switch self {
			case .unreadable(let reason):
				"not a settings file: \(reason)"
			case .invalidValue(let key, let reason):
				"'\(key)': \(reason)"
			case .invalidKeyName(let name, let reason):
				"'\(name)' is not a key's name: \(reason)"
			case .mixedSuites:
				"the keys to export belong to more than one suite"
			case .sizeBudgetExceeded(let key?, let size, let budget):
				"'\(key)' would be \(size) bytes, more than the size budget of \(budget) bytes per value; nothing was imported"
			case .sizeBudgetExceeded(nil, let size, let budget):
				"the suite would be \(size) bytes, more than its size budget of \(budget) bytes; nothing was imported"
			case .persistence(let error):
				"the imported values could not be written: \(error)"
			}
		}
	}

	/**
	Every value stored in `suite`, as a settings file: for backups, support
	requests, moving settings to another machine.

	Pass the app's keys as `declaring` so their values are written the way their
	types encode them: in JSON, a `Codable` value is a JSON object a person can
	read and edit, not JSON inside a string. Values not stored (defaults,
	launch arguments) are left out, and so is the library's own bookkeeping
	(the migration version). So is a stored name no key can have (`x.y`,
	written by another program or raw `UserDefaults`), which an import would
	refuse: each one left out is reported once per export, as an
	``Diagnostic/Kind/invalidKeyName`` diagnostic naming it, and the rest of
	the suite is still exported.

	```swift
	let backup = try Defaults.exportSettings(declaring: [.quality, .favoriteColors])
	try backup.write(to: backupURL)
	```
	*/
	public static func exportSettings(
		suite: UserDefaults = .standard,
		declaring keys: [_AnyKey] = [],
		format: SettingsFormat = .json
	) throws(SettingsTransferError) -> Data {
		let owner = Suite.of(suite)
		var names: [String] = []
		for name in owner.values.storedNames().sorted() where !KeyName.isReserved(name) {
			if let problem = KeyName.problem(with: name) {
				DiagnosticReporter.report(.invalidKeyName, key: name, suite: owner.displayName, "'\(name)' is stored in suite '\(owner.displayName)' but is not a key's name: \(problem); it was left out of the export, which an import could not read otherwise")
			} else {
				names.append(name)
			}
		}

		return try export(names, from: owner.values, keys: keys, format: format)
	}

	/**
	The stored values of `keys` (all of one suite) as a settings file; keys with
	nothing stored are left out. A key whose name no key can have (`x.y`) is
	refused with ``SettingsTransferError/invalidKeyName(_:reason:)``, as an
	import would refuse it.

	```swift
	let shared = try Defaults.exportSettings([.quality, .theme])
	```
	*/
	public static func exportSettings(
		_ keys: [_AnyKey],
		format: SettingsFormat = .json
	) throws(SettingsTransferError) -> Data {
		guard let suite = keys.first?.suite else {
			return try export([], from: Suite.of(.standard).values, keys: [], format: format)
		}

		guard keys.allSatisfy({ $0.suite === suite }) else {
			throw .mixedSuites
		}

		let values = Suite.of(suite).values
		return try export(keys.map(\.name).filter { values.storedObject(forKey: $0) != nil }, from: values, keys: keys, format: format)
	}

	/**
	Reads a settings file made by ``exportSettings(suite:declaring:format:)``
	(or `defaults export`) into `suite`, all or nothing.

	The format is recognized from the data. Each value of a key named in
	`declaring` is checked by decoding it as that key's type before anything is
	written (a `Codable` JSON object, a raw value, any form the type supports)
	and is stored in the key's current form; other names are stored as they
	are. If one value does not fit, nothing is written and the error names it.
	The value of a declared secret key (`secret: true`) is left out, with a
	diagnostic: an import would store it in the clear.
	By default the file's values are merged into the suite; with `replacing`,
	values the file does not have are removed too. Other processes see all of
	the changes or none, and observers hear each one. Returns the names whose
	values changed.

	A declared key's value must be of the kind its type stores (the text `"5"`
	is no `Int`); a name no key can have (`""`, `x.y`) is refused with
	``SettingsTransferError/invalidKeyName(_:reason:)``. The suite's migration
	version is neither read from the file nor removed, so an import never makes
	``migrate(_:suite:)`` run migrations again. An import that would pass the
	suite's size budget (``setSizeBudget(_:suite:)``) is refused as a whole with
	``SettingsTransferError/sizeBudgetExceeded(key:size:budget:)``.

	```swift
	do {
		let changed = try Defaults.importSettings(try Data(contentsOf: backupURL), declaring: [.quality, .favoriteColors])
		print("restored \(changed.count) settings")
	} catch {
		print("not restored: \(error)")   // e.g. 'quality': expected a Double, found a string ("high")
	}
	```
	*/
	@discardableResult
	public static func importSettings(
		_ data: Data,
		into suite: UserDefaults = .standard,
		declaring keys: [_AnyKey] = [],
		replacing: Bool = false
	) throws(SettingsTransferError) -> [String] {
		let imported = SecretKeys.withoutValuesOfSecrets(try SettingsFile.values(in: data, keys: keys), declared: keys, into: "an import")
		let committed: [String: PropertyListValue?]
		do {
			committed = try Suite.of(suite).commit { stored in
				var changes: [String: PropertyListValue?] = [:]
				for (name, value) in imported where stored[name] != value {
					changes[name] = .some(value)
				}

				if replacing {
					for name in stored.keys where imported[name] == nil && !KeyName.isReserved(name) {
						changes[name] = .some(nil)
					}
				}

				return changes
			}
		} catch .sizeBudgetExceeded(let key, let size, let budget) {
			throw .sizeBudgetExceeded(key: key, size: Int(size), budget: Int(budget))
		} catch {
			throw .persistence(error)
		}

		return committed.keys.sorted()
	}

	private static func export(_ names: [String], from values: any SuiteValueStore, keys: [_AnyKey], format: SettingsFormat) throws(SettingsTransferError) -> Data {
		let typed = SettingsFile.typedKeys(keys)
		var stored: [String: Any] = [:]
		for name in names {
			stored[name] = values.storedObject(forKey: name)
		}

		return try SettingsFile.data(of: stored, typed: typed, format: format)
	}
}
