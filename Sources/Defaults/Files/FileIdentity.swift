#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A version of a file: an atomic replace always changes it (a new inode), so
/// an unchanged identity means nobody wrote the file since it was last seen.
package struct FileIdentity: Equatable, Sendable {
	let device: UInt64
	let inode: UInt64
	let size: Int64
	let modified: timespec

	package static func == (lhs: Self, rhs: Self) -> Bool {
		lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size
			&& lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
	}
}
