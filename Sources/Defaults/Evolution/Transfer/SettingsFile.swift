import Foundation

/// Settings files: the values of a suite as JSON or a property list, and back.
enum SettingsFile {
	/// The typed keys among `keys`, by name (the last one wins if two share a name).
	static func typedKeys(_ keys: [Defaults._AnyKey]) -> [String: any TransferableKey] {
		var typed: [String: any TransferableKey] = [:]
		for key in keys {
			if let transferable = key as? any TransferableKey {
				typed[key.name] = transferable
			}
		}

		return typed
	}

	static func data(of stored: [String: Any], typed: [String: any TransferableKey], format: Defaults.SettingsFormat) throws(Defaults.SettingsTransferError) -> Data {
		switch format {
		case .propertyList:
			var values: [String: Any] = [:]
			for (name, object) in stored {
				try checkName(name)
				guard let value = PropertyListValue(object) else {
					throw .invalidValue(key: name, reason: "its stored value is not a property list")
				}

				values[name] = value.object
			}

			do {
				return try PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0)
			} catch {
				throw .invalidValue(key: "", reason: "\(error)")
			}
		case .json:
			var members: [String: JSONValue] = [:]
			for (name, object) in stored {
				try checkName(name)
				guard let json = typed[name]?.exportedJSON(ofStored: object) ?? PropertyListValue(object).flatMap(StoredValueJSON.json) else {
					throw .invalidValue(key: name, reason: "JSON cannot hold its value (NaN, an infinity, or a date before the year 1 or after 9999); export it as a property list")
				}

				members[name] = json
			}

			let encoder = JSONEncoder()
			encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
			do {
				return try encoder.encode(JSONValue.object(members))
			} catch {
				throw .invalidValue(key: "", reason: "\(error)")
			}
		}
	}

	/// The values a settings file holds, checked against `keys` and in their stored forms; `nil` removes the name.
	static func values(in data: Data, keys: [Defaults._AnyKey]) throws(Defaults.SettingsTransferError) -> [String: PropertyListValue?] {
		let typed = typedKeys(keys)
		var values: [String: PropertyListValue?] = [:]
		if let json = try json(in: data) {
			for (name, member) in json where !KeyName.isReserved(name) {
				try checkName(name)
				do {
					if let key = typed[name] {
						values[name] = try key.storedForm(ofJSON: member)
					} else {
						values[name] = try StoredValueJSON.propertyList(member)
					}
				} catch {
					throw .invalidValue(key: name, reason: error.reason)
				}
			}

			return values
		}

		for (name, value) in try propertyList(in: data) where !KeyName.isReserved(name) {
			try checkName(name)
			if let key = typed[name] {
				do {
					values[name] = try key.storedForm(ofStored: value)
				} catch {
					throw .invalidValue(key: name, reason: error.reason)
				}
			} else {
				values[name] = value
			}
		}

		return values
	}

	/// Refuses a name no key can have (empty, with a dot, starting with `@`, not ASCII): the file was not made from a suite's keys.
	private static func checkName(_ name: String) throws(Defaults.SettingsTransferError) {
		if let problem = KeyName.problem(with: name) {
			throw .invalidKeyName(name, reason: problem)
		}
	}

	/// The members of a JSON settings file; `nil` when the data is not JSON (it may be a property list).
	private static func json(in data: Data) throws(Defaults.SettingsTransferError) -> [String: JSONValue]? {
		guard let first = data.first(where: { !" \t\r\n".utf8.contains($0) }), first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
			return nil
		}

		let parsed: JSONValue
		do {
			parsed = try JSONDecoder().decode(JSONValue.self, from: data)
		} catch {
			throw .unreadable(reason: "invalid JSON")
		}

		guard case .object(let members) = parsed else {
			throw .unreadable(reason: "expected a JSON object of settings, found \(parsed.kindDescription)")
		}

		return members
	}

	private static func propertyList(in data: Data) throws(Defaults.SettingsTransferError) -> [String: PropertyListValue] {
		guard let value = PropertyListValue.parse(data) else {
			let reason = PropertyListValue.isBinaryPropertyList(data)
				? "a binary property list that is damaged or holds a kind no setting holds (a set, a UID, null)"
				: "neither JSON nor a property list"
			throw .unreadable(reason: reason)
		}

		guard case .dictionary(let values) = value else {
			throw .unreadable(reason: "expected a property-list dictionary of settings, found \(value.kindDescription)")
		}

		return values
	}
}
