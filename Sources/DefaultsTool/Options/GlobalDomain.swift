import Defaults

/**
The global domain: macOS's `NSGlobalDomain`, addressed with `-g`,
`-globalDomain`, its name or `Apple Global Domain` (as macOS's `find` names it).

On Linux, Foundation keeps it as `.GlobalPreferences.plist` in the
preferences folder and shows its keys in every suite (below the suite's own
values), so a key written here reaches every program that does not set it.
*/
enum GlobalDomain {
	static let name = "NSGlobalDomain"
	/// How `find` names it, as macOS's tool does; accepted as a domain too, so a name `find` printed can be typed back.
	static let displayName = "Apple Global Domain"
	static let names = [name, displayName]
	/// The file's name without `.plist`, as Foundation names it.
	static let fileDomain = ".GlobalPreferences"

	static func file() throws(Defaults.PersistenceError) -> PreferencesFile {
		try PreferencesFile(domain: fileDomain)
	}
}
