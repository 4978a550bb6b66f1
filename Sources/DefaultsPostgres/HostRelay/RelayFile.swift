#if Postgres
import Defaults
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/**
A relay file read and written without any lock shared between processes: a
process that stops (SIGSTOP, a debugger, a frozen cgroup) while reading or
writing one holds nothing another process waits on.

A write goes to a new temporary file, `.<name>.<pid>.<random>.tmp`, that is
renamed over the target: a reader sees the old file or the new one whole, and
a temporary file a stopped writer left is never read.

Every file is trusted only as it is at the moment of use (``problem(with:)``):
it is opened without following a symbolic link, and must be a regular file of
this user that no one else may write, no larger than a preferences file may
be. The folder's trust can change while processes run (a `chmod -R`), and a
file that fails the rule is not the relay's: it is damaged, set aside
(``setAside(_:because:)``) and rebuilt by whoever writes it.
*/
enum RelayFile {
	struct Failure: Error, CustomStringConvertible {
		let path: String
		let reason: String
		/// The file is there but is not one the relay can use (a link, a FIFO, another user's, too large, not a property
		/// list it wrote): it is set aside. Otherwise the failure belongs to the moment (no descriptor left, a full disk).
		let isDamaged: Bool

		var description: String {
			"\(path) \(reason)"
		}
	}

	/// Why a file with `status` is not one the relay trusts, or `nil` when it is.
	static func problem(with status: stat) -> String? {
		guard status.st_mode & S_IFMT == S_IFREG else {
			return "is not a regular file (a FIFO, a device, a folder)"
		}

		// Another name for the file would be written through (the lock file is written in place).
		guard status.st_nlink <= 1 else {
			return "has other names (a hard link)"
		}

		guard status.st_uid == geteuid() else {
			return "belongs to another user (uid \(status.st_uid))"
		}

		guard status.st_mode & 0o022 == 0 else {
			return "may be written by others (mode \(String(status.st_mode & 0o7777, radix: 8)))"
		}

		guard Int64(status.st_size) <= FileLimits.maximumFileSize else {
			return "holds \(status.st_size) bytes, more than a relay file may (\(FileLimits.maximumFileSize))"
		}

		return nil
	}

	/// Opens `url` for `flags` without following a link, and checks it; `nil` when there is no file.
	static func open(_ url: URL, _ flags: Int32, creating mode: mode_t? = nil) throws(Failure) -> Int32? {
		#if canImport(Glibc)
		let descriptor = mode.map { Glibc.open(url.path, flags | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, $0) }
			?? Glibc.open(url.path, flags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
		guard descriptor >= 0 else {
			let error = errno
			if error == ENOENT {
				return nil
			}

			let reason = error == ELOOP ? "is a symbolic link" : "cannot be opened (\(String(cString: strerror(error))))"
			// A folder that cannot be written (read-only, permissions) is not a damaged file: nothing set aside would help.
			throw Failure(path: url.path, reason: reason, isDamaged: ![EMFILE, ENFILE, ENOMEM, EINTR, ENOSPC, EDQUOT, EROFS, EACCES, EPERM].contains(error))
		}

		var status = stat()
		guard fstat(descriptor, &status) == 0 else {
			let reason = String(cString: strerror(errno))
			close(descriptor)
			throw Failure(path: url.path, reason: "cannot be examined (\(reason))", isDamaged: false)
		}

		if let problem = problem(with: status) {
			close(descriptor)
			throw Failure(path: url.path, reason: problem, isDamaged: true)
		}

		return descriptor
		#else
		return nil
		#endif
	}

	/// The file's contents, or `nil` when there is none.
	static func read(_ url: URL) throws(Failure) -> [String: PropertyListValue]? {
		#if canImport(Glibc)
		guard let descriptor = try open(url, O_RDONLY) else {
			return nil
		}

		defer { close(descriptor) }
		let data: Data
		do {
			data = try POSIXFileSystem().readAll(descriptor, url: url)
		} catch {
			throw Failure(path: url.path, reason: "cannot be read (\(error))", isDamaged: false)
		}

		switch PropertyListFileContents.decode(data) {
		case .missing:
			return nil
		case .contents(let contents):
			return contents
		case .unreadable, .tooLarge:
			throw Failure(path: url.path, reason: "is not a property list the relay wrote", isDamaged: true)
		}
		#else
		return nil
		#endif
	}

	/// Replaces (or creates) the file with `contents`, private to the user; `isCurrent`, asked just before the rename, may cancel it.
	static func write(_ contents: [String: PropertyListValue], to url: URL, if isCurrent: () -> Bool = { true }) throws(Failure) {
		#if canImport(Glibc)
		let data: Data
		do {
			data = try PropertyListFileContents.encode(contents, for: url.path)
		} catch {
			throw Failure(path: url.path, reason: "cannot be written (\(error))", isDamaged: false)
		}

		let temporary = TemporaryFileName.make(for: url)
		let descriptor = Glibc.open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
		guard descriptor >= 0 else {
			// Named by the file it replaces: each attempt's temporary name is new, its cause is not.
			throw Failure(path: url.path, reason: "cannot be written (\(String(cString: strerror(errno))))", isDamaged: false)
		}

		var isRenamed = false
		defer {
			if !isRenamed {
				unlink(temporary.path)
			}
		}

		let written = data.withUnsafeBytes { bytes -> Bool in
			var offset = 0
			while offset < bytes.count {
				let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
				if count < 0 {
					if errno == EINTR {
						continue
					}

					return false
				}

				offset += count
			}

			return true
		}
		let reason = written ? nil : String(cString: strerror(errno))
		let synced = written && fsync(descriptor) == 0
		close(descriptor)
		guard synced else {
			throw Failure(path: url.path, reason: "cannot be written (\(reason ?? String(cString: strerror(errno))))", isDamaged: false)
		}

		guard isCurrent() else {
			return
		}

		guard rename(temporary.path, url.path) == 0 else {
			throw Failure(path: url.path, reason: "cannot be replaced (\(String(cString: strerror(errno))))", isDamaged: false)
		}

		isRenamed = true
		#endif
	}

	/**
	Moves a damaged file aside (kept for the user, as a suite's unreadable file is:
	`<name>.unreadable-<time>.<extension>`), so that whoever writes it next writes
	it anew; returns what to report. A folder in the file's place, which cannot
	take the claimed name, is renamed to a name of its own.
	*/
	@discardableResult
	static func setAside(_ failure: Failure) -> String {
		let url = URL(fileURLWithPath: failure.path)
		let message = "the relay file \(failure.path) \(failure.reason)"
		if let aside = try? POSIXFileSystem().moveUnreadableAside(url) {
			let removed = removeOldAsides(of: url)
			let older = removed == 0 ? "" : " (\(removed) older \(removed == 1 ? "copy" : "copies") removed: the newest \(keptAsides) are kept)"
			return message + "; moved aside to \(aside.lastPathComponent)\(older), and written anew"
		}

		let aside = url.path + ".unreadable-\(UUID().uuidString.lowercased())"
		if rename(url.path, aside) == 0 {
			return message + "; moved aside to \(URL(fileURLWithPath: aside).lastPathComponent), and written anew"
		}

		return message + "; it could not be moved aside (\(String(cString: strerror(errno))))"
	}

	/// How many set-aside copies of one relay file are kept, the newest: damage that repeats (a 64 MiB outbox file at each retry) must not fill the disk.
	static let keptAsides = 3

	/**
	The set-aside copies to remove among `asides` (names with their
	modification times, in seconds), keeping the newest `kept` (of equal
	times, the greatest names, which the later copies take).
	*/
	static func asidesToRemove(_ asides: [(name: String, modified: Int)], keeping kept: Int = keptAsides) -> [String] {
		let newestFirst = asides.sorted { $0.modified != $1.modified ? $0.modified > $1.modified : $0.name > $1.name }
		return newestFirst.dropFirst(kept).map(\.name)
	}

	/// Removes all but the newest ``keptAsides`` set-aside copies of `url` (of any outbox file, for an outbox file: each writer's has a name of its own); returns how many it removed.
	private static func removeOldAsides(of url: URL) -> Int {
		let folder = url.deletingLastPathComponent()
		let base = url.deletingPathExtension().lastPathComponent
		let prefix = base.hasPrefix(HostRelayFiles.outboxPrefix) ? HostRelayFiles.outboxPrefix : base + "."
		guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
			return 0
		}

		let asides = names.filter { $0.hasPrefix(prefix) && $0.contains(".unreadable-") }.compactMap { name -> (name: String, modified: Int)? in
			var status = stat()
			guard lstat(folder.appendingPathComponent(name).path, &status) == 0 else {
				return nil
			}

			return (name, Int(status.st_mtim.tv_sec))
		}
		var removed = 0
		for name in asidesToRemove(asides) where unlink(folder.appendingPathComponent(name).path) == 0 {
			removed += 1
		}

		return removed
	}

	/// The file's device and inode, without following a link: which file a path names now.
	static func identity(of url: URL) -> (device: UInt64, inode: UInt64)? {
		#if canImport(Glibc)
		var status = stat()
		guard lstat(url.path, &status) == 0 else {
			return nil
		}

		return (UInt64(status.st_dev), UInt64(status.st_ino))
		#else
		return nil
		#endif
	}
}
#endif
