import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A replacement of a file, written ahead by ``PreferencesFileSystem/prepareReplacement(of:with:)``.
package struct PreparedReplacement: Sendable {
	/// A temporary file, synced, that holds the new bytes.
	struct Written: Sendable {
		let temporary: URL
		/// The file it is to replace: the suite file's final target when that is a symbolic link.
		let target: URL
		let mode: mode_t
	}

	let url: URL
	let data: Data
	/// `nil` when the file system writes the bytes at commit.
	let written: Written?
}
