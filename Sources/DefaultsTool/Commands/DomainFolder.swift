import Defaults

/**
The domains of the preferences folder, told apart from the files the library
keeps there for its own use: a suite's sync ledger
(`<suite>.defaults-sync.plist`), sync journals (`<device>.defaults-journal.plist`),
the global domain's `.GlobalPreferences.plist` (shown as `NSGlobalDomain`, not
listed among the domains, as on macOS), and the lock, temporary and
moved-aside files that `PreferencesFile.domainNames()` already leaves out.
*/
enum DomainFolder {
	private static let internalSuffixes = [SideFileNames.ledgerSuffix, SideFileNames.journalSuffix]

	/// The user's domains, sorted.
	static func domainNames() throws -> [String] {
		try persisting { try PreferencesFile.domainNames() }.filter { !isInternal($0) }
	}

	/// The library's files that belong to `domain` and go when it is deleted.
	static func companionDomains(of domain: String) -> [String] {
		[domain + SideFileNames.ledgerSuffix]
	}

	private static func isInternal(_ name: String) -> Bool {
		name == GlobalDomain.fileDomain || internalSuffixes.contains { name.hasSuffix($0) }
	}
}
