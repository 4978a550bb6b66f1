import Foundation

/// A path as the user typed it, quoted so the shell left a leading `~` alone.
enum TypedPath {
	/**
	`~/…` under `$HOME`, as the shell expands it; Foundation's
	`expandingTildeInPath` would take the account's home from the password
	database instead, and write to another folder than `$HOME` names.
	`~user/…` is still the account's home.
	*/
	static func expanded(_ path: String) -> String {
		if path == "~" || path.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"], home.hasPrefix("/") {
			return home + path.dropFirst()
		}

		return (path as NSString).expandingTildeInPath
	}
}
