import Defaults
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes `export`'s output where the user pointed it, with the library's file operations.
enum OutputFile {
	/**
	`/dev/stdout` and `/dev/stderr` (or `/dev/fd/1`, `/proc/self/fd/2`, …) are
	written to the descriptor itself, as `-` writes to standard output, whatever
	it is: a pipe, a socket, a terminal, a file the shell opened for appending.
	Anything else that exists and is not a regular file (a device, a FIFO, a
	pipe named by `/dev/fd/N`) is written into, never replaced. A regular file
	(new or existing, through symbolic links) is replaced atomically, keeping
	its permissions (a new one is 0644).
	*/
	static func write(_ data: Data, to path: String) throws {
		if let descriptor = standardDescriptor(namedBy: path) {
			guard fcntl(descriptor, F_GETFD) != -1 else {
				throw ToolError.cannotWrite(path: path, reason: "descriptor \(descriptor) is not open")
			}

			if let failure = FileDescriptor.writeAll(data, to: descriptor) {
				throw ToolError.cannotWrite(path: path, reason: String(cString: strerror(failure)))
			}

			return
		}

		// `stat` follows every link to what a write reaches, /proc's links to pipes and sockets included.
		var info = stat()
		let exists = stat(path, &info) == 0
		if exists, (info.st_mode & S_IFMT) == S_IFDIR {
			throw ToolError.cannotWrite(path: path, reason: "it is a folder")
		}

		do {
			if exists, (info.st_mode & S_IFMT) != S_IFREG {
				try POSIXFileSystem().writeInPlace(URL(fileURLWithPath: path), data: data)
				return
			}

			let target = URL(fileURLWithPath: followingLinks(path))
			guard folderExists(of: target.path) else {
				throw ToolError.cannotWrite(path: path, reason: "no such folder")
			}

			try POSIXFileSystem().replaceAtomically(target, with: data, newFileMode: 0o644)
		} catch let error as Defaults.PersistenceError {
			let reason = if case .fileOperationFailed(_, _, let reason) = error { reason } else { "\(error)" }
			throw ToolError.cannotWrite(path: path, reason: reason)
		}
	}

	/// Standard output or standard error, when `path` or a link on the way from it names one.
	private static func standardDescriptor(namedBy path: String) -> Int32? {
		let names: [String: Int32] = ["/dev/stdout": 1, "/dev/stderr": 2]
		for hop in linkChain(from: path) {
			if let descriptor = names[hop] {
				return descriptor
			}

			if let match = hop.wholeMatch(of: /\/(?:dev|proc\/self|proc\/(\d+))\/fd\/([12])/), match.1.map({ Int32($0) == getpid() }) ?? true {
				return Int32(match.2)
			}
		}

		return nil
	}

	/// Whether the folder that would hold the file at `path` exists (the tool creates no folders outside the preferences folder).
	static func folderExists(of path: String) -> Bool {
		var isDirectory: ObjCBool = false
		let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
		return FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue
	}

	/// The file a path names, following symbolic links even when the last one points at nothing yet.
	static func followingLinks(_ path: String) -> String {
		linkChain(from: path).last ?? path
	}

	/// `path`, then each symbolic link's destination in turn (at most 32 links).
	private static func linkChain(from path: String) -> [String] {
		var chain = [path]
		for _ in 0..<32 {
			guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: chain[chain.count - 1]) else {
				break
			}

			chain.append(destination.hasPrefix("/")
				? destination
				: (chain[chain.count - 1] as NSString).deletingLastPathComponent + "/" + destination)
		}

		return chain
	}
}
