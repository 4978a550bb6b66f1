import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The real file system: POSIX calls, so every step of an atomic replace is explicit.
package struct POSIXFileSystem: PreferencesFileSystem {
	package init() {}

	package func identity(of url: URL) -> FileIdentity? {
		var info = stat()
		guard stat(url.path, &info) == 0 else {
			return nil
		}

		return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size), modified: info.st_mtim)
	}

	/// Refuses a file over ``FileLimits/maximumFileSize`` by its size before reading it, and stops a file growing past it while being read.
	package func read(_ url: URL) throws(Defaults.PersistenceError) -> Data? {
		guard let descriptor = try openRegularFile(url, O_RDONLY, operation: "read") else {
			return nil
		}

		defer { close(descriptor) }
		return try readAll(descriptor, url: url)
	}

	/// Reads an open file to its end; refuses one over ``FileLimits/maximumFileSize`` by its size before reading it, and stops one growing past it while being read.
	package func readAll(_ descriptor: Int32, url: URL) throws(Defaults.PersistenceError) -> Data {
		let limit = FileLimits.maximumFileSize
		var info = stat()
		if fstat(descriptor, &info) == 0, Int64(info.st_size) > limit {
			throw .fileTooLarge(path: url.path, size: Int64(info.st_size), limit: limit)
		}

		var data = Data()
		var buffer = [UInt8](repeating: 0, count: 64 * 1024)
		while true {
			let count = buffer.withUnsafeMutableBytes { readBytes(descriptor, $0.baseAddress, $0.count) }
			if count < 0 {
				if errno == EINTR {
					continue
				}

				throw failure("read", url)
			}

			if count == 0 {
				return data
			}

			data.append(contentsOf: buffer[0..<count])
			if data.count > limit {
				throw .fileTooLarge(path: url.path, size: Int64(data.count), limit: limit)
			}
		}
	}

	/**
	Replaces the file through a temporary file in its folder, fsynced and
	renamed over it, then fsyncs the folder. A new file gets `newFileMode`; an
	existing one keeps the permissions someone gave it. A file that is a
	symbolic link (a dotfile manager's) is written through: its target is
	replaced, in the target's folder, and the link stays.
	*/
	package func replaceAtomically(_ link: URL, with data: Data, newFileMode: mode_t) throws(Defaults.PersistenceError) {
		try createFolder(link.deletingLastPathComponent())
		try commitReplacement(prepareReplacement(of: link, with: data, newFileMode: newFileMode), newFileMode: newFileMode, writingAgain: false)
	}

	/// A suite file's replacement: a new file is private to the user.
	package func prepareReplacement(of url: URL, with data: Data) throws(Defaults.PersistenceError) -> PreparedReplacement {
		try createFolder(url.deletingLastPathComponent())
		return try prepareReplacement(of: url, with: data, newFileMode: 0o600)
	}

	/**
	Renames the prepared file over its target, then syncs the folder. When the
	temporary file can no longer be renamed (it was removed, its folder or the
	link's target changed), the bytes are written again in full.
	*/
	package func commitReplacement(_ prepared: PreparedReplacement) throws(Defaults.PersistenceError) {
		try commitReplacement(prepared, newFileMode: 0o600, writingAgain: true)
	}

	package func discardReplacement(_ prepared: PreparedReplacement) {
		if let written = prepared.written {
			unlink(written.temporary.path)
		}
	}

	/// Writes `data` to a new temporary file beside the final target of `link`, with the target's permissions (`newFileMode` for a new file), and syncs it.
	private func prepareReplacement(of link: URL, with data: Data, newFileMode: mode_t) throws(Defaults.PersistenceError) -> PreparedReplacement {
		let url = try SymbolicLink.target(of: link)
		let folder = url.deletingLastPathComponent()
		if url != link, !FileManager.default.fileExists(atPath: folder.path) {
			throw .symbolicLink(path: link.path, reason: "points to \(url.path), in a folder that does not exist")
		}

		let temporary = TemporaryFileName.make(for: url)
		let mode = Self.mode(of: url) ?? newFileMode
		let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
		guard descriptor >= 0 else {
			throw failure("create", temporary)
		}

		do throws(Defaults.PersistenceError) {
			fchmod(descriptor, mode)
			try writeAll(data, to: descriptor, url: temporary)
			guard fsync(descriptor) == 0 else {
				throw failure("flush", temporary)
			}

			close(descriptor)
		} catch {
			close(descriptor)
			unlink(temporary.path)
			throw error
		}

		return PreparedReplacement(url: link, data: data, written: .init(temporary: temporary, target: url, mode: mode))
	}

	/// Renames the prepared file over its target and syncs the folder; when that cannot be done as prepared, writes the bytes again once if `writingAgain`.
	private func commitReplacement(_ prepared: PreparedReplacement, newFileMode: mode_t, writingAgain: Bool) throws(Defaults.PersistenceError) {
		guard let written = prepared.written else {
			return try replaceAtomically(prepared.url, with: prepared.data, newFileMode: newFileMode)
		}

		func writeAgain(orThrow error: Defaults.PersistenceError) throws(Defaults.PersistenceError) {
			discardReplacement(prepared)
			guard writingAgain else {
				throw error
			}

			try commitReplacement(prepareReplacement(of: prepared.url, with: prepared.data, newFileMode: newFileMode), newFileMode: newFileMode, writingAgain: false)
		}

		guard (try? SymbolicLink.target(of: prepared.url)) == written.target else {
			// The link was pointed elsewhere since.
			return try writeAgain(orThrow: .symbolicLink(path: prepared.url.path, reason: "was pointed elsewhere while it was written"))
		}

		// Someone changed the file's permissions since: the new file keeps theirs.
		let mode = Self.mode(of: written.target) ?? newFileMode
		if mode != written.mode {
			chmod(written.temporary.path, mode)
		}

		guard rename(written.temporary.path, written.target.path) == 0 else {
			// ENOENT: the temporary file, or its folder, was removed meanwhile.
			let wasRemoved = errno == ENOENT
			let error = failure("replace", written.target)
			guard wasRemoved else {
				discardReplacement(prepared)
				throw error
			}

			return try writeAgain(orThrow: error)
		}

		try syncFolder(written.target.deletingLastPathComponent())
	}

	/// The permission bits of the file at `url`, or `nil` when there is none.
	private static func mode(of url: URL) -> mode_t? {
		var existing = stat()
		return stat(url.path, &existing) == 0 ? mode_t(existing.st_mode & 0o777) : nil
	}

	/// Writes into an existing file that cannot be replaced (a FIFO, a device such as `/dev/stdout`).
	package func writeInPlace(_ url: URL, data: Data) throws(Defaults.PersistenceError) {
		let descriptor = open(url.path, O_WRONLY | O_CLOEXEC)
		guard descriptor >= 0 else {
			throw failure("open", url)
		}

		defer { close(descriptor) }
		try writeAll(data, to: descriptor, url: url)
	}

	package func remove(_ url: URL) throws(Defaults.PersistenceError) {
		guard unlink(url.path) == 0 || errno == ENOENT else {
			throw failure("delete", url)
		}

		try syncFolder(url.deletingLastPathComponent())
	}

	/**
	Polls for the lock instead of blocking on it, backing off from 1 ms to
	5 ms: a stopped or stuck holder costs a bounded wait, never a hang. While
	the suite's file keeps changing the holders are alive and busy, so the wait
	is extended, up to five times the patience `deadline` gave. The lock file
	is opened without following a symbolic link and must be a regular file.
	A suite file that is a link is also locked beside its final target, where
	writers that name the target take their lock.
	*/
	package func withExclusiveLock<Result>(
		for url: URL,
		waitingUntil deadline: ContinuousClock.Instant,
		_ body: () throws(Defaults.PersistenceError) -> Result
	) throws(Defaults.PersistenceError) -> Result {
		let folder = url.deletingLastPathComponent()
		try createFolder(folder)
		let lockURL = Self.lockURL(for: url)
		guard let descriptor = try openRegularFile(lockURL, O_RDWR | O_CREAT | O_NOFOLLOW, operation: "open the lock") else {
			throw failure("open the lock", lockURL)
		}

		defer { close(descriptor) }
		let start = ContinuousClock.now
		let patience = max(.zero, deadline - start)
		var giveUp = deadline
		var lastSeen = identity(of: url)
		var pause = Duration.milliseconds(1)
		while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
			guard errno == EWOULDBLOCK || errno == EINTR else {
				throw failure("lock", lockURL)
			}

			let now = ContinuousClock.now
			let seen = identity(of: url)
			if seen != lastSeen {
				lastSeen = seen
				giveUp = min(max(giveUp, now + patience), start + patience * 5)
			}

			guard now < giveUp else {
				throw .lockTimedOut(path: lockURL.path, seconds: ((now - start) / .milliseconds(100)).rounded() / 10)
			}

			let nap = min(pause, giveUp - now)
			usleep(UInt32(max(1, nap / .microseconds(1))))
			pause = min(pause * 2, .milliseconds(5))
		}

		// A lock file deleted with its suite (`defaults delete`) while this process waited guards nothing: lock the current one.
		guard isCurrentFile(descriptor, at: lockURL) else {
			flock(descriptor, LOCK_UN)
			return try withExclusiveLock(for: url, waitingUntil: deadline, body)
		}

		defer { flock(descriptor, LOCK_UN) }
		// A linked suite file is written through to its target, which another process may write by its own name
		// (and lock beside it): hold that lock too. Always the link's first, so two writers never wait on each other.
		if let target = try? SymbolicLink.target(of: url), target.path != url.path, folderExists(target.deletingLastPathComponent()) {
			return try withExclusiveLock(for: target, waitingUntil: deadline, body)
		}

		return try body()
	}

	private func folderExists(_ folder: URL) -> Bool {
		var isDirectory: ObjCBool = false
		return FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue
	}

	package func removeLockFile(for url: URL) throws(Defaults.PersistenceError) {
		let lockURL = Self.lockURL(for: url)
		guard unlink(lockURL.path) == 0 || errno == ENOENT else {
			throw failure("delete the lock", lockURL)
		}
	}

	private static func lockURL(for url: URL) -> URL {
		url.deletingLastPathComponent().appendingPathComponent(SideFileNames.lock(of: url.lastPathComponent))
	}

	/// Whether `path` still names the file open as `descriptor`.
	private func isCurrentFile(_ descriptor: Int32, at path: URL) -> Bool {
		var open = stat()
		var named = stat()
		return fstat(descriptor, &open) == 0 && stat(path.path, &named) == 0 && open.st_dev == named.st_dev && open.st_ino == named.st_ino
	}

	/**
	Opens `url` without ever blocking (a FIFO would wait for a writer; a
	terminal could become the controlling one) and returns the descriptor if it
	is a regular file; `nil` if there is no file. Anything else is closed again
	and refused.
	*/
	private func openRegularFile(_ url: URL, _ flags: Int32, operation: String) throws(Defaults.PersistenceError) -> Int32? {
		let descriptor = open(url.path, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o600)
		guard descriptor >= 0 else {
			if errno == ENOENT {
				return nil
			}

			if errno == ENXIO {
				// A socket, or a FIFO opened for writing with no reader.
				throw .notARegularFile(path: url.path)
			}

			if errno == ELOOP {
				// A symbolic link where none is followed (the lock file), or a loop of them.
				throw .symbolicLink(path: url.path, reason: flags & O_NOFOLLOW != 0 ? "the library does not follow here (a lock file must be a regular file)" : "is part of a loop")
			}

			throw failure(operation, url)
		}

		var info = stat()
		guard fstat(descriptor, &info) == 0 else {
			let error = failure(operation, url)
			close(descriptor)
			throw error
		}

		guard info.st_mode & S_IFMT == S_IFREG else {
			close(descriptor)
			throw .notARegularFile(path: url.path)
		}

		return descriptor
	}

	/// Creates missing folders with mode 0700; existing ones are left as they are.
	private func createFolder(_ folder: URL) throws(Defaults.PersistenceError) {
		var isDirectory: ObjCBool = false
		if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue {
			return
		}

		try createFolder(folder.deletingLastPathComponent())
		guard mkdir(folder.path, 0o700) == 0 || errno == EEXIST else {
			throw failure("create the folder", folder)
		}
	}

	private func writeAll(_ data: Data, to descriptor: Int32, url: URL) throws(Defaults.PersistenceError) {
		if let failed = FileDescriptor.writeAll(data, to: descriptor) {
			errno = failed
			throw failure("write", url)
		}
	}

	private func syncFolder(_ folder: URL) throws(Defaults.PersistenceError) {
		let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
		guard descriptor >= 0 else {
			throw failure("open the folder", folder)
		}

		defer { close(descriptor) }
		guard fsync(descriptor) == 0 else {
			throw failure("flush the folder", folder)
		}
	}

	func failure(_ operation: String, _ url: URL) -> Defaults.PersistenceError {
		.fileOperationFailed(operation: operation, path: url.path, reason: String(cString: strerror(errno)))
	}
}

/// `read(2)`, named apart from `PreferencesFileSystem.read(_:)`.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
	read(descriptor, buffer, count)
}
