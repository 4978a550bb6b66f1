import Defaults
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/**
The permissions of a file the tool creates for a domain given by its path.

The library makes a new preferences file private to its user (`0600`),
unless it lies in one of the system configuration folders the process was
started with (`$XDG_CONFIG_DIRS`). The tool cannot rely on that list: `sudo`
drops the variable, so `sudo defaults write /opt/app/etc/forced-defaults/D.plist …`
would make a file only root can read, which every other user's programs
ignore. So a new file outside the caller's own preferences folder (an
administrator's file in any folder, any file in a `forced-defaults` folder,
a file a user names by its path) is readable by every user, `0644`, as the
files `export` writes are; the user's own domains stay private. An existing
file keeps the permissions someone gave it.
*/
enum SharedFile {
	/// The permissions of a new file every user's programs must be able to read.
	static let mode: mode_t = 0o644

	/// Whether a file the tool creates at `url` is readable by every user: it is outside the caller's preferences folder, or in a `forced-defaults` folder.
	static func isShared(_ url: URL) -> Bool {
		let folder = url.deletingLastPathComponent()
		if folder.lastPathComponent == AdministratorFiles.forcedFolderName {
			return true
		}

		guard let preferences = try? PreferencesLocation.folder() else {
			return true
		}

		return resolved(folder) != resolved(preferences)
	}

	/**
	Creates the file at `url` with `contents`, readable by every user, while
	the caller holds the file's lock and before the library writes the same
	bytes: the library keeps an existing file's permissions, and makes a new
	one private.
	*/
	static func create(_ url: URL, with contents: [String: PropertyListValue]) throws {
		try POSIXFileSystem().replaceAtomically(url, with: PropertyListFileContents.encode(contents, for: url.path), newFileMode: mode)
	}

	private static func resolved(_ folder: URL) -> String {
		folder.standardizedFileURL.resolvingSymlinksInPath().path
	}
}
