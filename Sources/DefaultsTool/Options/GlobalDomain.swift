import Defaults

/**
The global domain: macOS's `NSGlobalDomain`, addressed with `-g`,
`-globalDomain` or its name.

On Linux, Foundation keeps it as `.GlobalPreferences.plist` in the
preferences folder and shows its keys in every suite (below the suite's own
values), so a key written here reaches every program that does not set it.
*/
enum GlobalDomain {
	static let name = "NSGlobalDomain"
	/// The file's name without `.plist`, as Foundation names it.
	static let fileDomain = ".GlobalPreferences"

	static func file() throws(Defaults.PersistenceError) -> PreferencesFile {
		try PreferencesFile(domain: fileDomain)
	}
}
