import Defaults

/**
A whole domain replaced, by `import` or by `write DOMAIN '{ … }'`.

The domain keeps the version its migrations reached
(`@Defaults.migrationVersion`) unless the new contents bring their own: a
library export leaves the version out, and a domain restored from one without
it would run every migration again, from the first, on values already
migrated (as `Defaults.importSettings(_:into:declaring:replacing:)` keeps it
too). A version that is not an integer is refused, in the new contents or in
the domain: the library could not tell which migrations the values went through.
*/
enum DomainReplacement {
	/// Refuses new contents with a name the library refuses, or whose version is not an integer, before the domain is locked; `source` names them ("standard input").
	static func check(_ new: [String: PropertyListValue], source: String) throws {
		try StoredKeyName.check(new.keys)
		if let version = new[KeyName.migrationVersion], !isInteger(version) {
			throw ToolError.nonIntegerMigrationVersion(holder: source, found: found(version), fix: nil)
		}
	}

	/// What replaces `current`: `new`, with the domain's version when `new` has none.
	static func contents(_ new: [String: PropertyListValue], replacing current: [String: PropertyListValue]?, target: Target) throws -> [String: PropertyListValue] {
		guard new[KeyName.migrationVersion] == nil, let recorded = current?[KeyName.migrationVersion] else {
			return new
		}

		guard isInteger(recorded) else {
			let fix = "set it with 'defaults write \(target.commandWords) \(KeyName.migrationVersion) -int N' first"
			throw ToolError.nonIntegerMigrationVersion(holder: naming(target), found: found(recorded), fix: fix)
		}

		var contents = new
		contents[KeyName.migrationVersion] = recorded
		return contents
	}

	/// The library records an `Int`; an integer above `Int.max` is none it could have written.
	private static func isInteger(_ version: PropertyListValue) -> Bool {
		if case .integer = version {
			return true
		}

		return false
	}

	private static func naming(_ target: Target) -> String {
		switch target {
		case .domain(let name):
			"domain '\(name)'"
		case .global:
			"the global domain"
		case .path(let path):
			path
		}
	}

	private static func found(_ version: PropertyListValue) -> String {
		"\(version.kindDescription) (\(JSONFormat.render(version, pretty: false)))"
	}
}
