import ArgumentParser
import Defaults
import Foundation

/// Chooses the file a command works on: a domain named by the first operand, or `--path`.
struct TargetOptions: ParsableArguments {
	@Option(
		name: .long,
		help: ArgumentHelp("Work on this property-list file instead of a domain; leave the domain out.", valueName: "file"),
		completion: .file()
	)
	var path: String?

	/// Splits `operands` into the file and the operands that follow the domain.
	func resolve(_ operands: [String], usage: String) throws -> Operands {
		var remaining = operands[...]
		if let path {
			// Through symbolic links: a link to a preferences file stays a link, and its target is edited.
			let url = URL(fileURLWithPath: OutputFile.followingLinks((path as NSString).expandingTildeInPath))
			let pathUsage = usage.replacingOccurrences(of: "<domain>", with: "--path <file>")
			return Operands(file: PreferencesFile(url: url), name: url.path, isExplicitPath: true, remaining: remaining, usage: pathUsage)
		}

		guard let domain = remaining.popFirst() else {
			throw ToolError.missingOperand("domain", usage: usage)
		}

		let file = try persisting { try PreferencesFile(domain: domain) }
		return Operands(file: file, name: domain, isExplicitPath: false, remaining: remaining, usage: usage)
	}
}

/// The file a command works on and the operands after its domain, taken one at a time.
struct Operands {
	let file: PreferencesFile
	/// How messages name the file: its domain, or its path.
	let name: String
	/// Whether the file was given with `--path` rather than as a domain.
	let isExplicitPath: Bool
	fileprivate(set) var remaining: ArraySlice<String>
	let usage: String

	mutating func next(_ name: String) throws -> String {
		guard let operand = remaining.popFirst() else {
			throw ToolError.missingOperand(name, usage: usage)
		}

		return operand
	}

	mutating func nextIfPresent() -> String? {
		remaining.popFirst()
	}

	/// Fails when operands are left over.
	func finish() throws {
		if let extra = remaining.first {
			throw ToolError.unexpectedOperand(extra, usage: usage)
		}
	}

	/// The file's values; fails when there is no file.
	func existingContents() throws -> [String: PropertyListValue] {
		guard let contents = try persisting({ try file.read() }) else {
			throw missing
		}

		return contents
	}

	/// The error for a domain or file that does not exist.
	var missing: ToolError {
		isExplicitPath ? .noSuchFile(name) : .noSuchDomain(name)
	}

	/**
	Edits a file that must exist. Its existence is checked before locking, so
	a command on a missing domain creates no folder or lock file; `body` runs
	under the lock with the current (non-`nil`) contents.
	*/
	func updateExisting(_ body: (inout [String: PropertyListValue]?) throws -> Void) throws {
		_ = try existingContents()
		let missing = missing
		try update { contents in
			guard contents != nil else {
				throw missing
			}

			try body(&contents)
		}
	}

	/// Edits the file under its lock; `body` gets `nil` when there is no file yet.
	@discardableResult
	func update<Value>(_ body: (inout [String: PropertyListValue]?) throws -> Value) throws -> Value {
		try persisting { try file.update(body) }
	}
}
