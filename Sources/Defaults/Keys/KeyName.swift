import Foundation

/**
The key-name rules of the Defaults package: ASCII only, not starting with `@`,
no `.` (Apple's key-value observing treats a dot as a path separator and `@`
as an operator).

A name that breaks them is reported as an ``Defaults/Diagnostic/Kind/invalidKeyName``
diagnostic naming the key, not a crash: on Linux such a key still stores and
reads correctly, but the same code would misbehave on Apple platforms.
*/
package enum KeyName {
	package static func problem(with name: String) -> String? {
		// One pass over the bytes, in place: every key checks its name when it is made, so this is start-up time
		// (Foundation's `contains(_:)` bridged each name to an NSString, a third of the cost of declaring a key; walking
		// `utf8` by index, a tenth of what is left).
		var name = name
		return name.withUTF8(problem(with:))
	}

	private static func problem(with bytes: UnsafeBufferPointer<UInt8>) -> String? {
		var containsDot = false
		for byte in bytes {
			if byte >= 0x80 {
				return "a key name must be ASCII"
			}

			containsDot = containsDot || byte == UInt8(ascii: ".")
		}

		guard let first = bytes.first else {
			return "a key name cannot be empty"
		}

		if first == UInt8(ascii: "@") {
			return "a key name cannot start with '@'"
		}

		if containsDot {
			return "a key name cannot contain '.'"
		}

		return nil
	}

	/**
	Why no value may be stored under `name` by a tool that edits a suite's
	file (`defaults write`, `rename`, `import`), or `nil`: the rules above, so
	that no file holds a name no key can read, which
	``Defaults/exportSettings(suite:declaring:format:)`` leaves out and
	``Defaults/importSettings(_:into:declaring:replacing:)`` refuses; the
	library's own bookkeeping (``migrationVersion``) excepted, which a tool may
	set as the library does.
	*/
	package static func problem(storing name: String) -> String? {
		isReserved(name) ? nil : problem(with: name)
	}

	/// Where a suite records the version its migrations reached: a name no valid key can have (it starts with `@` and holds a dot).
	/// The `defaults` tool keeps it when it replaces a whole domain.
	package static let migrationVersion = "@Defaults.migrationVersion"

	/// Whether `name` is the library's own bookkeeping rather than a key's: left out of `removeAll()` and exports.
	static func isReserved(_ name: String) -> Bool {
		name == migrationVersion
	}

	static func validate(_ name: String) {
		if let problem = problem(with: name) {
			DiagnosticReporter.report(.invalidKeyName, key: name, problem)
		}
	}
}
