import Defaults
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes `export`'s output where the user pointed it, with the library's file operations.
enum OutputFile {
	/**
	A regular file (new or existing, through symbolic links) is replaced
	atomically, keeping its permissions (a new one is 0644); anything else that
	exists (a device such as `/dev/stdout`, a FIFO) is written into, never replaced.
	*/
	static func write(_ data: Data, to path: String) throws {
		let target = URL(fileURLWithPath: followingLinks(path))
		var info = stat()
		let exists = stat(target.path, &info) == 0
		if exists, (info.st_mode & S_IFMT) == S_IFDIR {
			throw ToolError.cannotWrite(path: path, reason: "it is a folder")
		}

		guard folderExists(of: target.path) else {
			throw ToolError.cannotWrite(path: path, reason: "no such folder")
		}

		do {
			if exists, (info.st_mode & S_IFMT) != S_IFREG {
				try POSIXFileSystem().writeInPlace(target, data: data)
			} else {
				try POSIXFileSystem().replaceAtomically(target, with: data, newFileMode: 0o644)
			}
		} catch {
			let reason = if case .fileOperationFailed(_, _, let reason) = error { reason } else { "\(error)" }
			throw ToolError.cannotWrite(path: path, reason: reason)
		}
	}

	/// Whether the folder that would hold the file at `path` exists (the tool creates no folders outside the preferences folder).
	static func folderExists(of path: String) -> Bool {
		var isDirectory: ObjCBool = false
		let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
		return FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue
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
}
