import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes `export`'s output where the user pointed it.
enum OutputFile {
	/**
	A regular file (new or existing, through symbolic links) is replaced
	atomically, keeping its permissions; anything else that exists (a device
	such as `/dev/stdout`, a FIFO) is written into, never replaced.
	*/
	static func write(_ data: Data, to path: String) throws {
		let target = followingLinks(path)
		var info = stat()
		let exists = stat(target, &info) == 0
		if exists, (info.st_mode & S_IFMT) == S_IFDIR {
			throw ToolError.cannotWrite(path: path, reason: "it is a folder")
		}

		if exists, (info.st_mode & S_IFMT) != S_IFREG {
			try writeInto(target, data)
			return
		}

		let temporary = target + ".\(getpid()).tmp"
		let mode = exists ? info.st_mode & 0o7777 : 0o644
		try writeNew(temporary, data, mode: mode_t(mode))
		guard rename(temporary, target) == 0 else {
			let reason = String(cString: strerror(errno))
			unlink(temporary)
			throw ToolError.cannotWrite(path: path, reason: reason)
		}
	}

	/// The file a path names, following symbolic links even when the last one points at nothing yet.
	static func followingLinks(_ path: String) -> String {
		var current = path
		for _ in 0..<32 {
			guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
				return current
			}

			current = destination.hasPrefix("/")
				? destination
				: (current as NSString).deletingLastPathComponent + "/" + destination
		}

		return current
	}

	private static func writeNew(_ path: String, _ data: Data, mode: mode_t) throws {
		let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
		guard descriptor >= 0 else {
			throw ToolError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
		}

		defer { close(descriptor) }
		do {
			try writeAll(data, to: descriptor, path: path)
		} catch {
			unlink(path)
			throw error
		}

		fchmod(descriptor, mode)
	}

	private static func writeInto(_ path: String, _ data: Data) throws {
		let descriptor = open(path, O_WRONLY | O_CLOEXEC)
		guard descriptor >= 0 else {
			throw ToolError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
		}

		defer { close(descriptor) }
		try writeAll(data, to: descriptor, path: path)
	}

	private static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws {
		var failure: Int32 = 0
		data.withUnsafeBytes { bytes in
			var offset = 0
			while offset < bytes.count {
				let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
				if written < 0 {
					if errno == EINTR {
						continue
					}

					failure = errno
					return
				}

				offset += written
			}
		}

		if failure != 0 {
			throw ToolError.cannotWrite(path: path, reason: String(cString: strerror(failure)))
		}
	}
}
