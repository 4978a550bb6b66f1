import Foundation
#if canImport(Glibc)
import Glibc
#endif

/**
The files in which an administrator manages a domain's settings for every
user of a machine, following the XDG Base Directory rules.

The system configuration folders are `$XDG_CONFIG_DIRS` (a colon-separated
list, most important first; relative entries are ignored), `/etc/xdg` when
it is unset or empty. For a domain `D`, each folder may hold:
- `D.plist`: **system-wide defaults**, below each user's own values;
- `forced-defaults/D.plist`: **forced values**, above everything. They are
  trusted only when no user but root can change them: the file and its
  `forced-defaults` folder owned by root and writable by nobody else.

Where several folders hold a key, the most important folder's value wins.
The library reads these files and never writes them.

<!-- check: internal -->
```swift
let layers = AdministratorFiles.read(domain: "com.example.app")
print(layers.forced["proxy"]?.file.path ?? "not forced")
```
*/
package enum AdministratorFiles {
	/// The name of the folder, in each system configuration folder, that holds forced values.
	package static let forcedFolderName = "forced-defaults"

	/// One value an administrator set, and the file it came from.
	package struct Setting: Equatable, Sendable {
		package let value: PropertyListValue
		package let file: URL
	}

	/// A domain's administrator layers as read now, with the files that could not be used and why.
	package struct Layers: Equatable, Sendable {
		package var systemWide: [String: Setting] = [:]
		package var forced: [String: Setting] = [:]
		/// Each file that exists but was ignored, with the reason.
		package var ignored: [URL: String] = [:]
	}

	/// Replaces `$XDG_CONFIG_DIRS` for this process; the library's own tests use it.
	package static let foldersOverride = Locked<[URL]?>(nil)

	/// The system configuration folders, most important first, as the process started with them.
	package static var folders: [URL] {
		foldersOverride.withLock { $0 } ?? folders(environment: PreferencesLocation.launchEnvironment)
	}

	static func folders(environment: [String: String]) -> [URL] {
		let listed = (environment["XDG_CONFIG_DIRS"] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
		return (listed.isEmpty ? ["/etc/xdg"] : listed).map { URL(fileURLWithPath: $0, isDirectory: true) }
	}

	/// Every file that may hold settings of `domain`, system-wide ones first, each kind most important first.
	package static func files(ofDomain domain: String) -> (systemWide: [URL], forced: [URL]) {
		let name = "\(domain).plist"
		return (
			folders.map { $0.appendingPathComponent(name, isDirectory: false) },
			folders.map { $0.appendingPathComponent(forcedFolderName, isDirectory: true).appendingPathComponent(name, isDirectory: false) }
		)
	}

	/// Whether `file` is where an administrator's settings go: directly in a system configuration folder or in its `forced-defaults` folder.
	package static func isAdministratorFile(_ file: URL) -> Bool {
		let folder = file.deletingLastPathComponent().standardizedFileURL.path
		return folders.contains { system in
			let system = system.standardizedFileURL
			return folder == system.path || folder == system.appendingPathComponent(forcedFolderName, isDirectory: true).path
		}
	}

	/// Reads both layers of `domain` now. Never throws: a file that cannot be used is left out and named in ``Layers/ignored``.
	package static func read(domain: String) -> Layers {
		var layers = Layers()
		let (systemWide, forced) = files(ofDomain: domain)
		// Least important first, so that a more important folder's value replaces it.
		for file in systemWide.reversed() {
			for (name, value) in contents(of: file, requiringRootOwnership: false, ignored: &layers.ignored) {
				layers.systemWide[name] = Setting(value: value, file: file)
			}
		}

		for file in forced.reversed() {
			for (name, value) in contents(of: file, requiringRootOwnership: true, ignored: &layers.ignored) {
				layers.forced[name] = Setting(value: value, file: file)
			}
		}

		return layers
	}

	private static func contents(of file: URL, requiringRootOwnership: Bool, ignored: inout [URL: String]) -> [String: PropertyListValue] {
		let fileSystem = POSIXFileSystem()
		let before = fileSystem.identity(of: file)
		guard before != nil else {
			return [:]
		}

		if requiringRootOwnership, let problem = writableByOthersThanRoot(file) {
			ignored[file] = "is not trusted to force values: \(problem)"
			return [:]
		}

		let reading: SuiteFileContents.Reading
		do {
			reading = try fileSystem.reading(file).reading
		} catch {
			ignored[file] = "cannot be read: \(error)"
			return [:]
		}

		// Replaced between the check and the read: the watcher reports the replacement, and it is read again then.
		if requiringRootOwnership, fileSystem.identity(of: file) != before {
			ignored[file] = "was replaced while it was read"
			return [:]
		}

		switch reading {
		case .contents(let contents):
			return contents
		case .missing:
			return [:]
		case .unreadable, .tooLarge:
			ignored[file] = reading.problem ?? "cannot be read"
			return [:]
		}
	}

	/// Why a user other than root could change `file` (through it or its folder), or `nil` when none can.
	private static func writableByOthersThanRoot(_ file: URL) -> String? {
		for (path, what) in [(file.path, "the file"), (file.deletingLastPathComponent().path, "its folder")] {
			var info = stat()
			guard stat(path, &info) == 0 else {
				return "\(what) cannot be examined (\(String(cString: strerror(errno))))"
			}

			if info.st_uid != 0 {
				return "\(what) is owned by user \(info.st_uid), not root"
			}

			if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
				return "\(what) can be written by users other than root (mode \(String(info.st_mode & 0o7777, radix: 8)))"
			}
		}

		return nil
	}
}
