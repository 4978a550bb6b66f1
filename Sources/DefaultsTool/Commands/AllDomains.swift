import Defaults

/// The contents of every domain in the preferences folder, for `read` without a domain and `find`.
struct AllDomains {
	var contents: [String: [String: PropertyListValue]] = [:]
	/// Files that do not parse: skipped, reported after the rest is printed.
	var unreadable: [String] = []

	static func load() throws -> AllDomains {
		var domains = AllDomains()
		for name in try persisting({ try PreferencesFile.domainNames() }) {
			do {
				if let contents = try PreferencesFile(domain: name).read() {
					domains.contents[name] = contents
				}
			} catch Defaults.PersistenceError.unreadableFile(let path) {
				domains.unreadable.append(path)
			}
		}

		return domains
	}

	func failIfAnyUnreadable() throws {
		if !unreadable.isEmpty {
			throw ToolError.unreadableDomains(unreadable)
		}
	}
}
