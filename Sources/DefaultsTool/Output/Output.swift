import Defaults
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the tool's text goes: written unbuffered, so `watch` lines reach a pipe as they happen.
///
/// Written with `write(2)`, not `FileHandle`, whose `write` traps when the
/// descriptor refuses (`> /dev/full`, a closed descriptor): output that cannot
/// be written ends the tool with one line on standard error and status 1.
enum Output {
	static func print(_ text: String) {
		write(Data((text + "\n").utf8))
	}

	static func write(_ data: Data) {
		if let failure = FileDescriptor.writeAll(data, to: STDOUT_FILENO) {
			note("defaults: cannot write the output: \(String(cString: strerror(failure)))")
			exit(1)
		}
	}

	/// A one-line message on standard error, prefixed with the tool's name.
	static func reportFailure(_ message: String) {
		let trimmed = message.hasPrefix("Error: ") ? String(message.dropFirst("Error: ".count)) : message
		note("defaults: \(trimmed)")
	}

	/// A note on standard error that is not a failure; if standard error takes nothing, there is nowhere left to say so.
	static func note(_ message: String) {
		_ = FileDescriptor.writeAll(Data("\(message)\n".utf8), to: STDERR_FILENO)
	}
}
