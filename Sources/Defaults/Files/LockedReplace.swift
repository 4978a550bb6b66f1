import Foundation

/**
A preferences file held under its inter-process lock, for one
read-modify-replace: the protocol every writer of a suite's file follows,
the library's flushes and commits as well as the `defaults` tool's edits.

``PreferencesFileSystem/replacingContents(of:waitingUntil:_:)`` takes the
lock, deletes the temporary files of writers that died mid-replace, and
hands its body this value, good while the lock is held. The body reads the
file, decides the new contents, and replaces the file atomically as a binary
property list (or removes it): writers of different keys merge instead of
overwriting each other, and no reader ever sees a torn file. What the body
does around that (reading only when the file changed, recovering a file
that does not parse, a replacement written ahead of the lock) is its own.

<!-- check: internal -->
```swift
let fileSystem: any PreferencesFileSystem = POSIXFileSystem()
try fileSystem.replacingContents(of: url) { file throws(Defaults.PersistenceError) in
	guard case .contents(var contents) = PropertyListFileContents.decode(try file.data()) else {
		return
	}

	contents["volume"] = .integer(3)
	try file.replace(with: contents)
}
```
*/
struct LockedReplace {
	let url: URL
	let fileSystem: any PreferencesFileSystem

	/// The identity of the file's current version; `nil` when there is no file.
	var identity: FileIdentity? {
		fileSystem.identity(of: url)
	}

	/// The file's bytes, or `nil` when there is no file.
	func data() throws(Defaults.PersistenceError) -> Data? {
		try fileSystem.read(url)
	}

	/// Replaces the file with `contents`, as a binary property list (a new file gets `newFileMode`); returns the version written.
	@discardableResult
	func replace(with contents: [String: PropertyListValue], newFileMode: mode_t = 0o600) throws(Defaults.PersistenceError) -> FileVersion {
		let data = try PropertyListFileContents.encode(contents, for: url.path)
		try fileSystem.replaceAtomically(url, with: data, newFileMode: newFileMode)
		return FileVersion(identity: fileSystem.identity(of: url), contents: data)
	}

	/// Replaces the file with a replacement prepared before the lock was taken, whose bytes' digest is `digest`; returns the version written.
	func replace(with prepared: PreparedReplacement, digest: Int?) throws(Defaults.PersistenceError) -> FileVersion {
		try fileSystem.commitReplacement(prepared)
		return FileVersion(identity: fileSystem.identity(of: url), digest: digest)
	}

	/// Deletes the file; a missing file is not an error.
	func remove() throws(Defaults.PersistenceError) {
		try fileSystem.remove(url)
	}
}

extension PreferencesFileSystem {
	/**
	Runs one read-modify-replace of `url`: `body` gets the file while its
	inter-process lock is held, once temporaries abandoned by dead writers are
	gone. Waits for another process's lock until `deadline` at most (`nil`:
	``FileLimits/lockTimeout``).
	*/
	func replacingContents<Result>(
		of url: URL,
		waitingUntil deadline: ContinuousClock.Instant? = nil,
		_ body: (LockedReplace) throws(Defaults.PersistenceError) -> Result
	) throws(Defaults.PersistenceError) -> Result {
		try withExclusiveLock(for: url, waitingUntil: deadline ?? .now + FileLimits.lockTimeout) { () throws(Defaults.PersistenceError) -> Result in
			removeAbandonedTemporaries(of: url)
			return try body(LockedReplace(url: url, fileSystem: self))
		}
	}
}
