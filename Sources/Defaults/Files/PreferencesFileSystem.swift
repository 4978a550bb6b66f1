import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/**
The file operations persistence is built from.

Tests substitute an implementation that fails (a full disk, a read-only
folder) to prove nothing stored is lost when writing does not work.
*/
package protocol PreferencesFileSystem: Sendable {
	/// Identifies the file's current version, or `nil` when there is no file.
	func identity(of url: URL) -> FileIdentity?

	/// The file's bytes, or `nil` when there is no file.
	func read(_ url: URL) throws(Defaults.PersistenceError) -> Data?

	/**
	Replaces the file so that a reader, or a crash at any instant, sees the
	old or the new bytes, never a mix. A missing folder is created, private to
	the user; a new file gets `newFileMode`, an existing one keeps the
	permissions someone gave it.
	*/
	func replaceAtomically(_ url: URL, with data: Data, newFileMode: mode_t) throws(Defaults.PersistenceError)

	/**
	Does the slow part of replacing the file with `data` ahead of time, before
	the suite's inter-process lock is taken: writing and syncing a temporary
	file beside it. ``commitReplacement(_:)`` finishes the replace, under the
	lock; ``discardReplacement(_:)`` drops it.
	*/
	func prepareReplacement(of url: URL, with data: Data) throws(Defaults.PersistenceError) -> PreparedReplacement

	/// Replaces the file with a prepared replacement's bytes, as ``replaceAtomically(_:with:)`` does.
	func commitReplacement(_ prepared: PreparedReplacement) throws(Defaults.PersistenceError)

	/// Deletes what a replacement that will not be committed left (its temporary file).
	func discardReplacement(_ prepared: PreparedReplacement)

	/// Deletes the file; a missing file is not an error.
	func remove(_ url: URL) throws(Defaults.PersistenceError)

	/// Renames the file next to itself with `suffix` inserted before the extension, keeping it for the user; never replaces another file.
	func moveAside(_ url: URL, suffix: String) throws(Defaults.PersistenceError) -> URL

	/// Deletes temporary files of `url` whose writer is gone; called while holding the suite's inter-process lock.
	func removeAbandonedTemporaries(of url: URL)

	/// Runs `body` while holding the suite's inter-process lock; throws ``Defaults/PersistenceError/lockTimedOut(path:seconds:)`` if another process still holds it at `deadline`.
	func withExclusiveLock<Result>(
		for url: URL,
		waitingUntil deadline: ContinuousClock.Instant,
		_ body: () throws(Defaults.PersistenceError) -> Result
	) throws(Defaults.PersistenceError) -> Result

	/// Deletes the suite's lock file; called only inside ``withExclusiveLock(for:waitingUntil:_:)``, when the suite's file is gone.
	func removeLockFile(for url: URL) throws(Defaults.PersistenceError)
}

extension PreferencesFileSystem {
	/// Replaces the file as ``replaceAtomically(_:with:newFileMode:)`` does; a new preferences file is private to the user.
	func replaceAtomically(_ url: URL, with data: Data) throws(Defaults.PersistenceError) {
		try replaceAtomically(url, with: data, newFileMode: 0o600)
	}

	/// Sets an unreadable file aside as `<suite>.unreadable-<yyyyMMdd'T'HHmmss.SSS>[-N].plist`, the one name the library and the tool use.
	package func moveUnreadableAside(_ url: URL) throws(Defaults.PersistenceError) -> URL {
		let formatter = DateFormatter()
		formatter.locale = Locale(identifier: "en_US_POSIX")
		formatter.dateFormat = "yyyyMMdd'T'HHmmss.SSS"
		return try moveAside(url, suffix: "unreadable-\(formatter.string(from: Date()))")
	}

	/// The file decoded, and its bytes; a file too large to read is a reading of its own, to be set aside like an unreadable one.
	func reading(_ url: URL) throws(Defaults.PersistenceError) -> (reading: PropertyListFileContents.Reading, data: Data?) {
		do {
			let data = try read(url)
			return (PropertyListFileContents.decode(data), data)
		} catch .fileTooLarge(_, let size, let limit) {
			return (.tooLarge(size: size, limit: limit), nil)
		}
	}

	/// Runs `body` while holding the suite's inter-process lock, waiting at most ``FileLimits/lockTimeout`` for it.
	func withExclusiveLock<Result>(
		for url: URL,
		_ body: () throws(Defaults.PersistenceError) -> Result
	) throws(Defaults.PersistenceError) -> Result {
		try withExclusiveLock(for: url, waitingUntil: .now + FileLimits.lockTimeout, body)
	}
}

extension PreferencesFileSystem {
	/// File systems without lock files have none to remove.
	package func removeLockFile(for url: URL) throws(Defaults.PersistenceError) {}

	/// File systems that write nothing ahead keep the bytes, and replace the file at commit.
	package func prepareReplacement(of url: URL, with data: Data) throws(Defaults.PersistenceError) -> PreparedReplacement {
		PreparedReplacement(url: url, data: data, written: nil)
	}

	package func commitReplacement(_ prepared: PreparedReplacement) throws(Defaults.PersistenceError) {
		try replaceAtomically(prepared.url, with: prepared.data)
	}

	package func discardReplacement(_ prepared: PreparedReplacement) {}
}
