import Defaults
import Foundation

/// Where every test's preference files go: a temporary folder, never the user's `~/.config`.
///
/// Shared by every test target of the test process (one folder per process),
/// so the library and macro tests use the same one.
public enum TestEnvironment {
	public static let configHome: URL = {
		let folder = FileManager.default.temporaryDirectory
			.appendingPathComponent("defaults-tests-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
		try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
		setenv("XDG_CONFIG_HOME", folder.path, 1)
		PreferencesLocation.folderOverride.withLock { $0 = folder }
		return folder
	}()

	public static func fileURL(ofSuite name: String) -> URL {
		configHome.appendingPathComponent("\(name).plist")
	}

	/// Removes a suite's file and the lock file next to it.
	public static func removeFiles(ofSuite name: String) {
		try? FileManager.default.removeItem(at: fileURL(ofSuite: name))
		try? FileManager.default.removeItem(at: configHome.appendingPathComponent(".\(name).plist.lock"))
	}
}
