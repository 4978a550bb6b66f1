import Defaults
import Foundation

/// Where every test's preference files go: a temporary folder, never the user's `~/.config`.
///
/// Shared by every test target of the test process (one folder per process),
/// so the library and macro tests use the same one; removed when the process exits.
public enum TestEnvironment {
	public static let configHome: URL = {
		let folder = FileManager.default.temporaryDirectory
			.appendingPathComponent("defaults-tests-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
		try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
		setenv("XDG_CONFIG_HOME", folder.path, 1)
		PreferencesLocation.folderOverride.withLock { $0 = folder }
		// The folder is the whole test process's, so it goes when the process ends, failed tests or not.
		atexit { TestEnvironment.removeConfigHome() }
		return folder
	}()

	private static func removeConfigHome() {
		try? FileManager.default.removeItem(at: configHome)
	}

	public static func fileURL(ofSuite name: String) -> URL {
		configHome.appendingPathComponent("\(name).plist")
	}

	/// Removes a suite's file and the lock file next to it.
	public static func removeFiles(ofSuite name: String) {
		try? FileManager.default.removeItem(at: fileURL(ofSuite: name))
		try? FileManager.default.removeItem(at: configHome.appendingPathComponent(".\(name).plist.lock"))
	}
}
