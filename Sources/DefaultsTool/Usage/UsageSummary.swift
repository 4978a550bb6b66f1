import ArgumentParser

/**
The list of commands printed after "unknown command", as macOS's `defaults`
prints its usage when it does not know the verb: each command with its
operands and what it does, taken from the commands themselves.
*/
enum UsageSummary {
	/// The verbs, in the order `--help` lists them.
	static var commandNames: [String] {
		commands.map(\.commandName)
	}

	static var text: String {
		let lines = commands.map { (usage: $0.usage, abstract: $0.abstract) }
		let width = lines.map(\.usage.count).max() ?? 0
		let padded = lines.map { "  \($0.usage.padding(toLength: width + 2, withPad: " ", startingAt: 0))\($0.abstract)" }
		return (["usage: defaults <command> ...; the commands:"] + padded + [
			"<domain> is a domain name, -g (NSGlobalDomain), or the path of a property-list file (/… or ~/…).",
			"'defaults <command> --help' tells more.",
		]).joined(separator: "\n")
	}

	/// The refusal of a first word that is no command, with the closest command as the suggestion.
	static func unknownCommand(_ word: String) -> ToolError? {
		let known = commandNames + ["help"]
		guard !word.hasPrefix("-"), !known.contains(word) else {
			return nil
		}

		return .unknownCommand(word, suggestion: ClosestWord.closest(to: word, among: commandNames))
	}

	private static var commands: [(commandName: String, usage: String, abstract: String)] {
		DefaultsTool.configuration.subcommands.map { command in
			let configuration = command.configuration
			let name = configuration.commandName ?? "\(command)"
			// A command's first usage line, without the tool's name: "read [<domain> [<key>]]".
			let usage = configuration.usage?.split(separator: "\n").first.map { String($0.dropFirst("defaults ".count)) } ?? name
			return (name, usage, configuration.abstract)
		}
	}
}
