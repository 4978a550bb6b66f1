import Foundation
#if canImport(Glibc)
import Glibc
#endif

/**
The files in which an administrator manages a domain's settings for every
user of a machine, following the XDG Base Directory rules.

The system configuration folders are `$XDG_CONFIG_DIRS` (a colon-separated
list, most important first; relative entries are ignored), `/etc/xdg` when
it is unset or empty. For a domain `D`, each folder may hold a file of each
``ValueLayer/administered`` layer, where its location rule
(``ValueLayer/Location/systemFolders(subfolder:rootOnly:)``) says:
- `D.plist`: **system-wide defaults**, below each user's own values;
- `forced-defaults/D.plist`: **forced values**, above everything. They are
  trusted only when no user but root can change them: the file and its
  `forced-defaults` folder owned by root and writable by nobody else.

Where several folders hold a key, the most important folder's value wins.
The library reads these files and never writes them.

<!-- check: internal -->
```swift
let layers = AdministratorFiles.read(domain: "com.example.app")
print(layers[.forced]["proxy"]?.file.path ?? "not forced")
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
		/// The settings of every administered layer (none: an empty dictionary).
		package fileprivate(set) var settings = Dictionary(uniqueKeysWithValues: ValueLayer.administered.map { ($0, [String: Setting]()) })
		/// Each file that exists but was ignored, with the reason.
		package var ignored: [URL: String] = [:]

		/// The settings of `layer`.
		package subscript(layer: ValueLayer) -> [String: Setting] {
			settings[layer] ?? [:]
		}

		/// The values of every administered layer, without their files: what a suite's values take.
		package var values: [ValueLayer: [String: PropertyListValue]] {
			settings.mapValues { $0.mapValues(\.value) }
		}
	}

	/// The system configuration folders, most important first, as the process started with them.
	package static var folders: [URL] {
		DefaultsSystem.administratorFoldersOverride.withLock { $0 } ?? folders(environment: PreferencesLocation.launchEnvironment)
	}

	static func folders(environment: [String: String]) -> [URL] {
		let listed = (environment["XDG_CONFIG_DIRS"] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
		return (listed.isEmpty ? ["/etc/xdg"] : listed).map { URL(fileURLWithPath: $0, isDirectory: true) }
	}

	/// Every file that may hold settings of `domain`: each administered layer's, each layer's most important first.
	package static func files(ofDomain domain: String) -> [URL] {
		ValueLayer.administered.flatMap { files(ofDomain: domain, in: $0, folders: folders) }
	}

	/// The files of `layer` for `domain` in the system configuration folders `folders`, most important first, by the layer's location rule.
	private static func files(ofDomain domain: String, in layer: ValueLayer, folders: [URL]) -> [URL] {
		let name = "\(domain).plist"
		return folders.map { folder(of: layer, in: $0).appendingPathComponent(name, isDirectory: false) }
	}

	/// The folder holding `layer`'s files in the system configuration folder `system`: the folder itself, or its subfolder the location rule names.
	private static func folder(of layer: ValueLayer, in system: URL) -> URL {
		guard case .systemFolders(let subfolder?, _) = layer.location else {
			return system
		}

		return system.appendingPathComponent(subfolder, isDirectory: true)
	}

	/// Whether `file` is where an administrator's settings go: in a system configuration folder, where an administered layer's location rule puts it.
	package static func isAdministratorFile(_ file: URL) -> Bool {
		let folder = file.deletingLastPathComponent().standardizedFileURL.path
		// The user's own preferences stay theirs, even when a system folder is listed as the preferences folder too.
		if let preferences = try? PreferencesLocation.folder(), preferences.standardizedFileURL.path == folder {
			return false
		}

		return folders.contains { system in
			ValueLayer.administered.contains { folder == Self.folder(of: $0, in: system.standardizedFileURL).standardizedFileURL.path }
		}
	}

	/**
	The other paths whose changes change what `file` reads: each symbolic link
	on the way from `file` to the file it names and that file
	(`/etc/xdg/D.plist -> /etc/alternatives/D.plist -> /opt/app/D.plist`, as
	packages install them); when the folder of one of them is itself a link,
	that folder (re-pointing it changes the file read) and the file at its
	real place. Empty for a regular file in a real folder.

	<!-- check: internal -->
	```swift
	let heard = AdministratorFiles.pathsBehind(URL(fileURLWithPath: "/etc/xdg/com.example.app.plist"))
	```
	*/
	package static func pathsBehind(_ file: URL) -> [URL] {
		var chain = [file]
		// Bounded as the kernel bounds a chain: a loop ends here (and the read reports it).
		while chain.count <= SymbolicLink.maximumHops, let next = SymbolicLink.destination(of: chain[chain.count - 1]) {
			chain.append(next)
		}

		var paths = Array(chain.dropFirst())
		for link in chain {
			var info = stat()
			let folder = link.deletingLastPathComponent()
			if lstat(folder.path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
				paths.append(folder)
			}
		}

		if let last = chain.last, let real = realpath(last.deletingLastPathComponent().path, nil) {
			defer { free(real) }
			let folder = URL(fileURLWithPath: String(cString: real), isDirectory: true)
			if folder.standardizedFileURL.path != last.deletingLastPathComponent().standardizedFileURL.path {
				paths.append(folder.appendingPathComponent(last.lastPathComponent, isDirectory: false))
			}
		}

		var seen: Set<String> = [file.standardizedFileURL.path]
		return paths.filter { seen.insert($0.standardizedFileURL.path).inserted }
	}

	/// Reads every administered layer of `domain` now. Never throws: a file that cannot be used is left out and named in ``Layers/ignored``.
	package static func read(domain: String) -> Layers {
		read(domain: domain, in: folders)
	}

	/// Reads every administered layer of `domain` from the system configuration folders `folders`, most important first.
	static func read(domain: String, in folders: [URL]) -> Layers {
		var layers = Layers()
		for layer in ValueLayer.administered {
			guard case .systemFolders(_, let rootOnly) = layer.location else {
				continue
			}

			var settings: [String: Setting] = [:]
			// Least important first, so that a more important folder's value replaces it.
			for file in files(ofDomain: domain, in: layer, folders: folders).reversed() {
				for (name, value) in contents(of: file, requiringRootOwnership: rootOnly, ignored: &layers.ignored) {
					settings[name] = Setting(value: value, file: file)
				}
			}

			layers.settings[layer] = settings
		}

		return layers
	}

	/**
	The values in `file`, or none when it does not exist or cannot be used
	(then `ignored` says why). Read through descriptors: the folder and the
	file whose owner and mode are checked are the ones read, whatever is
	renamed or re-linked meanwhile.
	*/
	private static func contents(of file: URL, requiringRootOwnership: Bool, ignored: inout [URL: String]) -> [String: PropertyListValue] {
		let folderPath = file.deletingLastPathComponent().path
		let folder = open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
		guard folder >= 0 else {
			// No folder is no file; any other failure hides a file that may exist, so it is said.
			if errno != ENOENT, errno != ENOTDIR {
				ignored[file] = "cannot be read: its folder cannot be opened (\(String(cString: strerror(errno))))"
			}
			return [:]
		}

		defer { close(folder) }
		if requiringRootOwnership, let problem = writableByOthersThanRoot(folder, what: "its folder") {
			ignored[file] = "is not trusted to force values: \(problem)"
			return [:]
		}

		// Non-blocking, so that a FIFO cannot hang the reader; it is refused below.
		let descriptor = openat(folder, file.lastPathComponent, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
		guard descriptor >= 0 else {
			switch errno {
			case ENOENT:
				break
			case ELOOP:
				ignored[file] = "cannot be read: it is a loop of symbolic links"
			case ENXIO:
				ignored[file] = "is not a regular file"
			default:
				ignored[file] = "cannot be read: \(String(cString: strerror(errno)))"
			}
			return [:]
		}

		defer { close(descriptor) }
		var info = stat()
		guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
			ignored[file] = "is not a regular file"
			return [:]
		}

		if requiringRootOwnership, let problem = writableByOthersThanRoot(descriptor, what: "the file") {
			ignored[file] = "is not trusted to force values: \(problem)"
			return [:]
		}

		let reading: PropertyListFileContents.Reading
		do {
			reading = PropertyListFileContents.decode(try POSIXFileSystem().readAll(descriptor, url: file))
		} catch .fileTooLarge(_, let size, let limit) {
			reading = .tooLarge(size: size, limit: limit)
		} catch {
			ignored[file] = "cannot be read: \(error)"
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

	/// Why a user other than root could change what `descriptor` (`what`: the file, or its folder) holds, or `nil` when none can.
	private static func writableByOthersThanRoot(_ descriptor: Int32, what: String) -> String? {
		var info = stat()
		guard fstat(descriptor, &info) == 0 else {
			return "\(what) cannot be examined (\(String(cString: strerror(errno))))"
		}

		if info.st_uid != 0 {
			return "\(what) is owned by user \(info.st_uid), not root"
		}

		if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
			return "\(what) can be written by users other than root (mode \(String(info.st_mode & 0o7777, radix: 8)))"
		}

		return nil
	}
}
