import Foundation

/// Where the tool's text goes: written unbuffered, so `watch` lines reach a pipe as they happen.
enum Output {
	static func print(_ text: String) {
		FileHandle.standardOutput.write(Data((text + "\n").utf8))
	}

	static func write(_ data: Data) {
		FileHandle.standardOutput.write(data)
	}

	/// A one-line message on standard error, prefixed with the tool's name.
	static func reportFailure(_ message: String) {
		let trimmed = message.hasPrefix("Error: ") ? String(message.dropFirst("Error: ".count)) : message
		FileHandle.standardError.write(Data("defaults: \(trimmed)\n".utf8))
	}

	/// A note on standard error that is not a failure.
	static func note(_ message: String) {
		FileHandle.standardError.write(Data("\(message)\n".utf8))
	}
}
