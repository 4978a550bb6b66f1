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
a temporary file a stopped writer left is never read. Files are opened
without following a symbolic link and must be regular files.
*/
enum RelayFile {
	struct Failure: Error, CustomStringConvertible {
		let path: String
		let reason: String

		var description: String {
			"\(path): \(reason)"
		}
	}

	/// The file's contents, or `nil` when there is none.
	static func read(_ url: URL) throws -> [String: PropertyListValue]? {
		#if canImport(Glibc)
		let descriptor = open(url.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
		guard descriptor >= 0 else {
			if errno == ENOENT {
				return nil
			}

			throw Failure(path: url.path, reason: "cannot be opened (\(String(cString: strerror(errno))))")
		}

		defer { close(descriptor) }
		var status = stat()
		guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
			throw Failure(path: url.path, reason: "is not a regular file")
		}

		switch PropertyListFileContents.decode(try POSIXFileSystem().readAll(descriptor, url: url)) {
		case .missing:
			return nil
		case .contents(let contents):
			return contents
		case .unreadable, .tooLarge:
			throw Failure(path: url.path, reason: "is not a property list the relay wrote")
		}
		#else
		return nil
		#endif
	}

	/// Replaces (or creates) the file with `contents`, private to the user; `isCurrent`, asked just before the rename, may cancel it.
	static func write(_ contents: [String: PropertyListValue], to url: URL, if isCurrent: () -> Bool = { true }) throws {
		#if canImport(Glibc)
		let data = try PropertyListFileContents.encode(contents, for: url.path)
		let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: .min ... .max)).tmp")
		let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
		guard descriptor >= 0 else {
			throw Failure(path: temporary.path, reason: "cannot be created (\(String(cString: strerror(errno))))")
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
			throw Failure(path: temporary.path, reason: "cannot be written (\(reason ?? String(cString: strerror(errno))))")
		}

		guard isCurrent() else {
			return
		}

		guard rename(temporary.path, url.path) == 0 else {
			throw Failure(path: url.path, reason: "cannot be replaced (\(String(cString: strerror(errno))))")
		}

		isRenamed = true
		#endif
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
