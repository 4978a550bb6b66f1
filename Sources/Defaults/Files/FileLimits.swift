import Foundation

/// The limits every reader and writer of preferences files keeps: the library's suites and the `defaults` tool alike.
package enum FileLimits {
	/**
	The largest suite file the library and the `defaults` tool read: 64 MiB.

	A preferences file is kilobytes; a file this large at a suite's path is
	something else (a log, a disk image written to the wrong name), and reading
	it whole would take the process's memory with it. It is set aside unread,
	as an unreadable file is.
	*/
	package static let maximumFileSize: Int64 = 64 * 1024 * 1024

	/// How long a writer (a flush, the `defaults` tool) waits for another process to release the suite's lock before it gives up and retries later.
	package static let lockTimeout: Duration = .seconds(2)
}
