import ArgumentParser
import Defaults
import Foundation

struct WriteCommand: ParsableCommand {
	static let usage = "defaults write <domain> <key> [-<type>] <value>..."

	static let configuration = CommandConfiguration(
		commandName: "write",
		abstract: "Store a typed value under a key, or replace a whole domain.",
		usage: """
			\(usage)
			defaults write <domain> '{ <key> = <value>; ... }'
			defaults write -g <key> [-<type>] <value>...
			defaults write --path <file> <key> [-<type>] <value>...
			""",
		discussion: """
			Types: \(ValueParser.flagSummary).
			  defaults write com.example.demo count -int 8
			  defaults write com.example.demo ratio -float 0.5
			  defaults write com.example.demo enabled -bool yes
			  defaults write com.example.demo launched -date 2026-11-22T08:30:00Z
			  defaults write com.example.demo tags -array swift linux
			  defaults write com.example.demo sizes -array -int 1 -int 2
			  defaults write com.example.demo window -dict width -int 800 title main
			  defaults write com.example.demo tags -array-add more
			  defaults write com.example.demo limits -json '{"level": 3, "tags": ["a"]}'
			  defaults write -g AppleLocale en_US
			  defaults write com.example.demo '{ greeting = hello; count = 8; }'
			Without a type the value is a string, or an old-style property list when it starts \
			with (, { or <. A Codable value of the Defaults library is stored as a JSON string: \
			write it with -string '{"width":800}'. A dictionary in braces in place of the key \
			replaces the whole domain (its values are strings, arrays and dictionaries, as \
			old-style property lists have no other types).
			Words that start with '-': before the key they are options; a domain or key that \
			starts with '-' goes after '--' (defaults write -- -domain -key -int 1). Among the \
			values, a word that starts with '-' is a type, or a negative number stored as text \
			(-5); -h and --help print this help; anything else is refused as an unknown type. \
			The word after a scalar type (-string -x) and a key inside -dict are taken as they are.
			A key name follows the Defaults library's rules: ASCII, not empty, no '.', not \
			starting with '@' (@Defaults.migrationVersion excepted). A file given by its path \
			outside your preferences folder, or in a forced-defaults folder, is created readable \
			by every user (0644), in a folder that must exist.
			"""
	)

	@OptionGroup var target: TargetOptions

	// Split by hand (see `Words`), so values such as `-5` or `-string --help` are data, not options.
	@Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The domain, the key, and the value with its type flag.", valueName: "domain> <key> <value"))
	var arguments: [String] = []

	func run() throws {
		let words = try Words(arguments, path: target.path, globalDomain: target.globalDomain)
		var operands = try TargetOptions.resolve(words.operands[...], path: words.path, globalDomain: words.globalDomain, usage: Self.usage)
		let key = try operands.next("key")
		if operands.remaining.isEmpty, key.drop(while: \.isWhitespace).first == "{" {
			let contents = try Self.domainLiteral(key)
			try DomainReplacement.check(contents, source: "the dictionary")
			try Self.refuseForced(contents.keys.sorted(), of: operands.target)
			try operands.refuseMissingFolder()
			let target = operands.target
			try operands.update { $0 = try DomainReplacement.contents(contents, replacing: $0, target: target) }
			return
		}

		try StoredKeyName.check([key])
		let action = try ValueParser.parse(operands.remaining, of: Self.self, usage: Self.usage)
		try Self.refuseForced([key], of: operands.target)
		try operands.refuseMissingFolder()
		try operands.update { contents in
			var values = contents ?? [:]
			values[key] = try Self.apply(action, to: values[key], key: key)
			contents = values
		}
	}

	/// A program would never see the value of a key an administrator forces, and the library refuses to write one: so does the tool.
	private static func refuseForced(_ keys: [String], of target: Target) throws {
		guard case .domain(let domain) = target else {
			return
		}

		let forced = AdministratorFiles.read(domain: domain)[.forced]
		if let key = keys.first(where: { forced[$0] != nil }), let setting = forced[key] {
			throw ToolError.forcedKey(key, domain: domain, file: setting.file.path)
		}
	}

	private static func domainLiteral(_ text: String) throws -> [String: PropertyListValue] {
		guard case .dictionary(let contents)? = OldStylePropertyList.parse(Data(text.utf8)) else {
			throw ToolError.notADomainLiteral(text)
		}

		return contents
	}

	static func apply(_ action: WriteAction, to current: PropertyListValue?, key: String) throws -> PropertyListValue {
		switch (action, current) {
		case (.set(let value), _):
			return value
		case (.appendToArray(let elements), nil):
			return .array(elements)
		case (.appendToArray(let elements), .array(let existing)?):
			return .array(existing + elements)
		case (.mergeIntoDictionary(let entries), nil):
			return .dictionary(entries)
		case (.mergeIntoDictionary(let entries), .dictionary(let existing)?):
			return .dictionary(existing.merging(entries) { $1 })
		case (.appendToArray, let other?):
			throw ToolError.notAContainer(key: key, kind: other.kindDescription, expected: "an array")
		case (.mergeIntoDictionary, let other?):
			throw ToolError.notAContainer(key: key, kind: other.kindDescription, expected: "a dictionary")
		}
	}
}
