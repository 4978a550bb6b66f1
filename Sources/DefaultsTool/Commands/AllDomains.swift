import Defaults

/// The contents of every domain in the preferences folder (and of `NSGlobalDomain`), for `read` without a domain and `find`.
struct AllDomains {
	var contents: [String: [String: PropertyListValue]] = [:]
	/// Files that do not parse: skipped, reported after the rest is printed.
	var unreadable: [String] = []

	static func load() throws -> AllDomains {
		var domains = AllDomains()
		var files: [(name: String, file: PreferencesFile)] = []
		for name in try DomainFolder.domainNames() {
			files.append((name, try persisting { try PreferencesFile(domain: name) }))
		}

		files.append((GlobalDomain.name, try persisting { try GlobalDomain.file() }))
		for (name, file) in files {
			do {
				if let contents = try file.read() {
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
