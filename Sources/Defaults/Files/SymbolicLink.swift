import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/**
Where a write to a suite file that is a symbolic link goes.

Dotfile managers link `~/.config/NAME.plist` into a repository. Replacing the
link with a regular file would cut it (and a link to another suite's file
would copy that suite's keys in), so the library writes through it: the final
target is replaced atomically in its own folder, its permissions kept, and the
link stays. A link into a folder that does not exist, or a loop of links,
cannot be written through: the write fails with
``Defaults/PersistenceError/symbolicLink(path:reason:)`` and the changes stay
pending.
*/
enum SymbolicLink {
	/// How many links are followed before the chain counts as a loop, as the kernel does.
	static let maximumHops = 40

	/// The file a write of `url` must replace: `url` itself unless it is a symbolic link, else the end of its chain of links.
	static func target(of url: URL) throws(Defaults.PersistenceError) -> URL {
		var current = url
		for _ in 0..<maximumHops {
			guard let destination = destination(of: current) else {
				return current
			}

			current = destination
		}

		throw .symbolicLink(path: url.path, reason: "is part of a loop, or a chain of more than \(maximumHops) links")
	}

	/// Where the link at `url` points, resolved against the link's folder; `nil` when `url` is not a link (or does not exist).
	static func destination(of url: URL) -> URL? {
		var info = stat()
		guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else {
			return nil
		}

		var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
		let length = readlink(url.path, &buffer, buffer.count - 1)
		guard length > 0 else {
			return nil
		}

		let text = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
		return text.hasPrefix("/") ? URL(fileURLWithPath: text) : url.deletingLastPathComponent().appendingPathComponent(text).standardizedFileURL
	}
}
