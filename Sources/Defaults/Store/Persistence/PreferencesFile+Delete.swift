import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension PreferencesFile {
	/// What ``delete()`` did.
	package enum Deletion: Equatable, Sendable {
		/// The file was removed.
		case deleted
		/// The file did not parse; it was renamed to this file, kept for the user.
		case movedAside(URL)
		/// There was no file.
		case missing
	}

	/**
	Deletes the file, with its lock file and any temporary file a crashed
	writer left, under the suite's lock.

	A file that does not parse is not deleted but moved aside (named like the
	library's own asides, `<suite>.unreadable-<time>.plist`, never over an
	existing file), so a damaged suite can start over without losing the bytes.
	The lock file is removed while it is held: a process that was waiting for
	it notices, once it gets it, that the path no longer names it, and locks
	the new one instead.
	*/
	package func delete() throws(Defaults.PersistenceError) -> Deletion {
		try fileSystem.withExclusiveLock(for: url) { () throws(Defaults.PersistenceError) -> Deletion in
			let deletion: Deletion
			switch SuiteFileContents.decode(try fileSystem.read(url)) {
			case .missing:
				deletion = .missing
			case .contents:
				try fileSystem.remove(url)
				deletion = .deleted
			case .unreadable:
				deletion = .movedAside(try moveAsideWithoutReplacing())
			}

			removeStaleTemporaries()
			try fileSystem.removeLockFile(for: url)
			return deletion
		}
	}

	/// Renames the file to a free `<suite>.unreadable-yyyyMMdd'T'HHmmss.SSS.plist` (a later millisecond when one is taken).
	private func moveAsideWithoutReplacing() throws(Defaults.PersistenceError) -> URL {
		let formatter = DateFormatter()
		formatter.locale = Locale(identifier: "en_US_POSIX")
		formatter.dateFormat = "yyyyMMdd'T'HHmmss.SSS"
		let name = url.deletingPathExtension().lastPathComponent
		let folder = url.deletingLastPathComponent()
		var time = Date()
		for _ in 0..<1000 {
			let aside = folder.appendingPathComponent("\(name).unreadable-\(formatter.string(from: time)).\(url.pathExtension)")
			// `link` fails when the name is taken, where `rename` would replace what is there.
			if link(url.path, aside.path) == 0 {
				try fileSystem.remove(url)
				return aside
			}

			guard errno == EEXIST else {
				break
			}

			time += 0.001
		}

		throw .fileOperationFailed(operation: "move aside", path: url.path, reason: String(cString: strerror(errno)))
	}

	/// Temporary files of this suite's atomic replaces (`.<file>.<pid>.<random>.tmp`): while the lock is held, none is in use.
	private func removeStaleTemporaries() {
		let folder = url.deletingLastPathComponent()
		let prefix = ".\(url.lastPathComponent)."
		let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
		for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
			unlink(folder.appendingPathComponent(name).path)
		}
	}
}
