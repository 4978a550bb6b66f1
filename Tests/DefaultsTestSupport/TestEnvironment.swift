import Defaults
import Foundation

/// Where every test's preference files go: a temporary folder, never the user's `~/.config`.
///
/// It is the `XDG_CONFIG_HOME` the test process started with, which `scripts/test`
/// points at a temporary folder it removes at the end: Foundation reads that
/// variable once, at launch, and the raw `UserDefaults` the tests use next to the
/// library must read and write the same files as the library. Without it, raw
/// `UserDefaults` would write to `~/.config`, so the tests refuse to run.
public enum TestEnvironment {
	public static let configHome: URL = {
		let launchValue = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] ?? ""
		guard launchValue.hasPrefix("/"), launchValue != NSHomeDirectory() + "/.config" else {
			fatalError("Run the tests through scripts/test, or with XDG_CONFIG_HOME set to a temporary folder: raw UserDefaults would otherwise write to ~/.config")
		}

		let folder = URL(fileURLWithPath: launchValue, isDirectory: true)
		try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
		// The administrator's folder too: never the machine's /etc/xdg.
		let system = folder.appendingPathComponent("xdg-system", isDirectory: true)
		try? FileManager.default.createDirectory(at: system.appendingPathComponent(AdministratorFiles.forcedFolderName), withIntermediateDirectories: true)
		DefaultsSystem.overrideFolders(preferences: folder, administrators: [system])
		return folder
	}()

	/// The system configuration folder every suite of the test process reads (its `$XDG_CONFIG_DIRS`); child processes get it with ``environment``.
	public static var systemFolder: URL {
		configHome.appendingPathComponent("xdg-system", isDirectory: true)
	}

	/// The environment a child process needs to use the same preferences and system folders as the tests.
	public static var environment: [String: String] {
		var environment = ProcessInfo.processInfo.environment
		environment["XDG_CONFIG_HOME"] = configHome.path
		environment["XDG_CONFIG_DIRS"] = systemFolder.path
		return environment
	}

	public static func fileURL(ofSuite name: String) -> URL {
		configHome.appendingPathComponent("\(name).plist")
	}

	/// Removes a suite's file and the lock file next to it.
	public static func removeFiles(ofSuite name: String) {
		try? FileManager.default.removeItem(at: fileURL(ofSuite: name))
		try? FileManager.default.removeItem(at: configHome.appendingPathComponent(".\(name).plist.lock"))
		try? FileManager.default.removeItem(at: configHome.appendingPathComponent(".\(name).plist.migration.lock"))
	}

	/// A trial or round count a test reads from the environment (`DEFAULTS_FORK_TRIALS=50`), else `defaultCount`, the modest count CI runs.
	public static func count(_ variable: String, default defaultCount: Int) -> Int {
		ProcessInfo.processInfo.environment[variable].flatMap { Int($0) } ?? defaultCount
	}
}
