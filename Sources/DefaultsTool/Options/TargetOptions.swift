import ArgumentParser
import Defaults
import Foundation

/// Chooses the file a command works on: a domain named by the first operand, the global domain (`-g`), or `--path`.
struct TargetOptions: ParsableArguments {
	@Option(
		name: .long,
		help: ArgumentHelp("Work on this property-list file instead of a domain; leave the domain out.", valueName: "file"),
		completion: .file()
	)
	var path: String?

	@Flag(
		name: [.customShort("g"), .customLong("globalDomain", withSingleDash: true)],
		help: "Work on the global domain (NSGlobalDomain), whose keys every program's standard suite sees; leave the domain out."
	)
	var globalDomain = false

	/// Splits `operands` into the file and the operands that follow the domain.
	func resolve(_ operands: [String], usage: String) throws -> Operands {
		try Self.resolve(operands[...], path: path, globalDomain: globalDomain, usage: usage)
	}

	static func resolve(_ operands: ArraySlice<String>, path: String?, globalDomain: Bool, usage: String) throws -> Operands {
		var remaining = operands
		if let path {
			guard !globalDomain else {
				throw ToolError.conflictingTargets(usage: usage)
			}

			return file(at: path, remaining: remaining, usage: usage.replacingOccurrences(of: "<domain>", with: "--path <file>"))
		}

		if globalDomain {
			return Operands(file: try persisting { try GlobalDomain.file() }, target: .global, remaining: remaining, usage: usage, createsSharedFile: false)
		}

		guard let domain = remaining.popFirst() else {
			throw ToolError.missingOperand("domain", usage: usage)
		}

		if GlobalDomain.names.contains(domain) {
			return Operands(file: try persisting { try GlobalDomain.file() }, target: .global, remaining: remaining, usage: usage, createsSharedFile: false)
		}

		if let path = filePath(namedBy: domain) {
			return file(at: path, remaining: remaining, usage: usage)
		}

		let file = try persisting { try PreferencesFile(domain: domain) }
		return Operands(file: file, target: .domain(domain), remaining: remaining, usage: usage, createsSharedFile: false)
	}
}

extension TargetOptions {
	/**
	The file a domain operand names, as macOS's `defaults` takes one
	(`defaults read ~/x.plist key`): a domain that starts with `/`, or with `~`
	and holds a `/`. `.plist` is added when left out, as macOS does; any other
	domain with a `/` is refused, so no name leaves the preferences folder by accident.
	*/
	static func filePath(namedBy domain: String) -> String? {
		guard domain.hasPrefix("/") || (domain.hasPrefix("~") && domain.contains("/")) else {
			return nil
		}

		return domain.hasSuffix(".plist") ? domain : domain + ".plist"
	}

	private static func file(at path: String, remaining: ArraySlice<String>, usage: String) -> Operands {
		// Through symbolic links: a link to a preferences file stays a link, and its target is edited.
		let url = URL(fileURLWithPath: OutputFile.followingLinks(TypedPath.expanded(path)))
		return Operands(file: PreferencesFile(url: url), target: .path(url.path), remaining: remaining, usage: usage, createsSharedFile: SharedFile.isShared(url))
	}
}

/// What a command works on, as messages and suggested commands name it.
enum Target: Equatable {
	case domain(String)
	case global
	case path(String)

	/// How messages name it: the domain, or the file's path.
	var name: String {
		switch self {
		case .domain(let name):
			name
		case .global:
			GlobalDomain.name
		case .path(let path):
			path
		}
	}

	/// The words that select it on a command line, ready to paste into a shell.
	var commandWords: String {
		switch self {
		case .domain(let name):
			name.hasPrefix("-") ? "-- \(ShellWord.quoted(name))" : ShellWord.quoted(name)
		case .global:
			"-g"
		case .path(let path):
			"--path \(ShellWord.quoted(path))"
		}
	}
}

/// The file a command works on and the operands after its domain, taken one at a time.
struct Operands {
	let file: PreferencesFile
	let target: Target
	fileprivate(set) var remaining: ArraySlice<String>
	let usage: String
	/// Whether a file an edit creates is readable by every user (see ``SharedFile``), not private as the library makes it.
	let createsSharedFile: Bool

	/// How messages name the file: its domain, or its path.
	var name: String {
		target.name
	}

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

	/// The file's values, or `nil` when there is no file.
	func contents() throws -> [String: PropertyListValue]? {
		try reporting { try file.read() }
	}

	/// The file's values; fails when there is no file.
	func existingContents() throws -> [String: PropertyListValue] {
		guard let contents = try contents() else {
			throw missing
		}

		return contents
	}

	/// The error for a domain or file that does not exist.
	var missing: ToolError {
		if case .path(let path) = target {
			.noSuchFile(path)
		} else {
			.noSuchDomain(name)
		}
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

	/// A file given by its path is written only into a folder that exists, as `export` writes; a domain's folder is created as the library creates it.
	func refuseMissingFolder() throws {
		guard case .path(let path) = target else {
			return
		}

		if !OutputFile.folderExists(of: path) {
			throw ToolError.noSuchFolder(path: path)
		}
	}

	/// Edits the file under its lock; `body` gets `nil` when there is no file yet.
	@discardableResult
	func update<Value>(_ body: (inout [String: PropertyListValue]?) throws -> Value) throws -> Value {
		try reporting {
			try file.update { contents in
				let isNew = contents == nil
				let result = try body(&contents)
				if isNew, createsSharedFile, let contents {
					try SharedFile.create(file.url, with: contents)
				}

				return result
			}
		}
	}

	/// Runs a library call; an unreadable file, or one too large to read, is reported with the command that repairs it.
	func reporting<Value>(_ body: () throws -> Value) throws -> Value {
		do {
			return try persisting(body)
		} catch ToolError.persistence(.unreadableFile(let path)) {
			throw ToolError.unreadableDomain(path: path, repair: repair)
		} catch ToolError.persistence(.fileTooLarge(let path, let size, let limit)) {
			throw ToolError.domainFileTooLarge(path: path, size: size, limit: limit, repair: repair)
		}
	}

	/// The command that sets an unreadable file aside.
	private var repair: String {
		"defaults delete \(target.commandWords)"
	}
}
