import Defaults
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension ImportCommand {
	/**
	Reads what `import` replaces the domain with, never more than a
	preferences file may hold (``FileLimits/maximumFileSize``): a
	regular file over it is refused by its size before a byte is read, a
	device other than a terminal (`/dev/zero`, a disk) is refused unread, and a
	pipe is read up to the limit and refused if it goes on.
	*/
	static func readInput(from handle: FileHandle, sourceName: String) throws -> Data {
		let limit = Int(FileLimits.maximumFileSize)
		let tooLarge = ToolError.unreadableInput(source: sourceName, reason: "it is larger than the \(limit / 1024 / 1024) MiB a preferences file may have")
		var info = stat()
		if fstat(handle.fileDescriptor, &info) == 0 {
			switch info.st_mode & S_IFMT {
			case S_IFREG where Int64(info.st_size) > Int64(limit):
				throw tooLarge
			case S_IFCHR where isatty(handle.fileDescriptor) == 0, S_IFBLK:
				throw ToolError.unreadableInput(source: sourceName, reason: "it is a device, not a file or a pipe")
			case S_IFDIR:
				throw ToolError.unreadableInput(source: sourceName, reason: "it is a folder")
			default:
				break
			}
		}

		var data = Data()
		while let chunk = try handle.read(upToCount: 64 * 1024), !chunk.isEmpty {
			data.append(chunk)
			if data.count > limit {
				throw tooLarge
			}
		}

		return data
	}
}
