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
	Deletes the file, with its lock files and any temporary file a crashed
	writer left, under the suite's locks.

	A file that does not parse is not deleted but moved aside (named like the
	library's own asides, `<suite>.unreadable-<time>.plist`, never over an
	existing file), so a damaged suite can start over without losing the bytes.
	Each lock file is removed while it is held: a process that was waiting for
	it notices, once it gets it, that the path no longer names it, and locks
	the new one instead. The migration lock is taken first, as a migration
	takes it before the file's lock, so the two never wait on each other.
	*/
	package func delete() throws(Defaults.PersistenceError) -> Deletion {
		let migrationURL = SideFileNames.migrationLockTarget(of: url)
		return try fileSystem.withExclusiveLock(for: migrationURL) { () throws(Defaults.PersistenceError) -> Deletion in
			let deletion = try fileSystem.withExclusiveLock(for: url) { () throws(Defaults.PersistenceError) -> Deletion in
				let deletion: Deletion
				switch try fileSystem.reading(url).reading {
				case .missing:
					deletion = .missing
				case .contents:
					try fileSystem.remove(url)
					deletion = .deleted
				case .unreadable, .tooLarge:
					deletion = .movedAside(try fileSystem.moveUnreadableAside(url))
				}

				removeStaleTemporaries()
				try fileSystem.removeLockFile(for: url)
				return deletion
			}

			try fileSystem.removeLockFile(for: migrationURL)
			return deletion
		}
	}

	/// Whether the library's own files for this suite (its lock files) are there, with or without the suite's file.
	package var hasLockFiles: Bool {
		let folder = url.deletingLastPathComponent()
		return [SideFileNames.lock(of: url.lastPathComponent), SideFileNames.lock(of: SideFileNames.migrationLockTarget(of: url).lastPathComponent)].contains { name in
			var info = stat()
			return lstat(folder.appendingPathComponent(name).path, &info) == 0
		}
	}

	/// Temporary files of this suite's atomic replaces: while the lock is held, none is in use.
	private func removeStaleTemporaries() {
		let folder = url.deletingLastPathComponent()
		let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
		for name in names where TemporaryFileName.writer(of: name, temporaryOf: url) != nil {
			unlink(folder.appendingPathComponent(name).path)
		}
	}
}
