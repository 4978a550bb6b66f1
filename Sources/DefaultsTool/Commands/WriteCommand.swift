import ArgumentParser
import Defaults

struct WriteCommand: ParsableCommand {
	static let usage = "defaults write <domain> <key> [-<type>] <value>..."

	static let configuration = CommandConfiguration(
		commandName: "write",
		abstract: "Store a typed value under a key.",
		usage: "\(usage)\ndefaults write --path <file> <key> [-<type>] <value>...",
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
			Without a type the value is a string, or an old-style property list when it starts \
			with (, { or <. A Codable value of the Defaults library is stored as a JSON string: \
			write it with -string '{"width":800}'.
			"""
	)

	@OptionGroup var target: TargetOptions

	// Everything after the domain is taken as it is, so values such as `-h`, `--path` or `-5` are data, not options.
	@Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The domain, the key, and the value with its type flag.", valueName: "domain> <key> <value"))
	var arguments: [String] = []

	func run() throws {
		var arguments = arguments
		if let terminator = arguments.firstIndex(of: "--"), terminator < 2 {
			arguments.remove(at: terminator)
		}

		var operands = try target.resolve(arguments, usage: Self.usage)
		let key = try operands.next("key")
		let action = try ValueParser.parse(operands.remaining)
		try operands.update { contents in
			var values = contents ?? [:]
			values[key] = try Self.apply(action, to: values[key], key: key)
			contents = values
		}
	}

	private static func apply(_ action: WriteAction, to current: PropertyListValue?, key: String) throws -> PropertyListValue {
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
