import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to an open file descriptor with `write(2)`.
package enum FileDescriptor {
	/// Writes all of `data` to `descriptor`, resuming after partial writes and interruptions; returns `errno` when the descriptor takes no more (a full disk, a closed descriptor), `nil` when everything was written.
	package static func writeAll(_ data: Data, to descriptor: Int32) -> Int32? {
		data.withUnsafeBytes { bytes -> Int32? in
			var offset = 0
			while offset < bytes.count {
				let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
				if written < 0 {
					if errno == EINTR {
						continue
					}

					return errno
				}

				offset += written
			}

			return nil
		}
	}
}
