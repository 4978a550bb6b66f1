import Foundation

/**
Where a suite's file lives: the path swift-corelibs-foundation uses, so raw
`UserDefaults` in any process reads the same file.

`$XDG_CONFIG_HOME/<suite>.plist` when `XDG_CONFIG_HOME` is absolute, else
`$HOME/.config/<suite>.plist`; the standard suite is named after the process.
Like Foundation, the variables are read as they were when the process started
(a later `setenv` changes neither). Unlike Foundation, names that would leave
the folder are refused, and so are a missing `HOME` (Foundation would write to
`/.config`) and a relative one (Foundation would write below the working
directory), just as a relative `XDG_CONFIG_HOME` is not used.
*/
package enum PreferencesLocation {
	/// The environment the process started with, which is what Foundation's preferences use.
	static let launchEnvironment: [String: String] = {
		guard let data = FileManager.default.contents(atPath: "/proc/self/environ") else {
			return ProcessInfo.processInfo.environment
		}

		var environment: [String: String] = [:]
		for entry in data.split(separator: 0) {
			let text = String(decoding: entry, as: UTF8.self)
			if let separator = text.firstIndex(of: "=") {
				environment[String(text[..<separator])] = String(text[text.index(after: separator)...])
			}
		}

		return environment
	}()

	/// Refuses a name whose file would leave the folder, or whose lock, temporary or aside file names would be too long to create.
	static func validate(suiteName name: String) throws(Defaults.PersistenceError) {
		guard
			!name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0"),
			SideFileNames.longestDerivedName(ofSuite: name) <= SideFileNames.maximumFileNameBytes
		else {
			throw .invalidSuiteName(name)
		}
	}

	/// The longest suite name accepted, in UTF-8 bytes.
	package static var longestSuiteName: Int {
		SideFileNames.maximumFileNameBytes - SideFileNames.longestDerivedName(ofSuite: "")
	}

	/// Why `name` is refused when it is only its length, for messages; `nil` when it is not too long.
	package static func lengthProblem(of name: String) -> String? {
		guard name.utf8.count > longestSuiteName else {
			return nil
		}

		return "is \(name.utf8.count) bytes long: the lock, temporary and set-aside files named after it would exceed the \(SideFileNames.maximumFileNameBytes)-byte limit of a file name; use at most \(longestSuiteName) bytes"
	}

	/// The preferences folder of this process.
	package static func folder() throws(Defaults.PersistenceError) -> URL {
		if let folder = DefaultsSystem.preferencesFolderOverride.withLock({ $0 }) {
			return folder
		}

		return try folder(environment: launchEnvironment)
	}

	static func folder(environment: [String: String]) throws(Defaults.PersistenceError) -> URL {
		if let configHome = environment["XDG_CONFIG_HOME"], configHome.hasPrefix("/") {
			return URL(fileURLWithPath: configHome, isDirectory: true)
		}

		guard let home = environment["HOME"], !home.isEmpty else {
			throw .noPreferencesFolder
		}

		// Foundation would resolve it against the working directory, which changes from one launch to the next.
		guard home.hasPrefix("/") else {
			throw .relativePreferencesFolder(variable: "HOME", path: home)
		}

		return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config", isDirectory: true)
	}
}
