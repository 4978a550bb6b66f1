import ArgumentParser
import Foundation

/**
The `defaults` command: reads, writes and watches the preferences that Swift
programs keep on Linux, the way macOS's `defaults` does there.

Domains are the suite files of the preferences folder (`$XDG_CONFIG_HOME`,
else `~/.config`); `--path` works on any property-list file instead. Every
edit goes through the library's persistence: it takes the suite's lock,
merges with what other processes wrote, and replaces the file atomically, so
running programs see it as a change like any other.
*/
@main
struct DefaultsTool: ParsableCommand {
	static let configuration = CommandConfiguration(
		commandName: "defaults",
		abstract: "Read, write and watch the preferences of Swift programs.",
		discussion: """
			Domains are the property-list files in $XDG_CONFIG_HOME (or ~/.config), named \
			<domain>.plist; -g (or -globalDomain, or the domain NSGlobalDomain) is the global \
			domain, .GlobalPreferences.plist there, whose keys every program's standard suite \
			sees; a file's path (starting with / or ~/, '.plist' added when left out) or --path \
			works on any property-list file instead of a domain. A domain or key that starts \
			with '-' goes after '--'. -currentHost, -host and -app are refused: Linux keeps no \
			per-host preferences and has no application bundles. Every command takes -h/--help.
			Values print as old-style property lists, as macOS prints them; booleans print as 1 \
			and 0, and a whole float keeps its '.0' (1.0) so it is not mistaken for an integer \
			(read-type tells the type exactly).
			Errors are one line on standard error, 'defaults: <reason>'. Exit status: 0 on \
			success, 64 when the command line is wrong (an unknown option or type, a missing or \
			extra operand, a value that does not parse), 1 when the command fails (no such \
			domain or key, an unreadable file, a file that cannot be written).
			Examples:
			  defaults write com.example.demo greeting -string hello
			  defaults read com.example.demo greeting
			  defaults write -g AppleLocale en_US
			  defaults watch com.example.demo
			'defaults fleet' (a Linux addition) reads and changes the settings a fleet of processes \
			syncs through a shared folder or PostgreSQL: see 'defaults fleet --help'.
			""",
		version: toolVersion,
		subcommands: [
			ReadCommand.self,
			ReadTypeCommand.self,
			WriteCommand.self,
			DeleteCommand.self,
			RenameCommand.self,
			DomainsCommand.self,
			FindCommand.self,
			ExportCommand.self,
			ImportCommand.self,
			WatchCommand.self,
			SizeCommand.self,
			FleetCommand.self,
		]
	)

	/// Runs the command; a failure is one line on standard error (`defaults: <reason>`) and status 64 (usage) or 1.
	static func main() {
		do {
			let words = Array(CommandLine.arguments.dropFirst())
			try refuseUnknownCommand(words)
			try refuseOptionLikeOperands(words)
			var command = try parse(words)
			try command.run()
		} catch {
			let status = exitCode(for: error)
			guard status != .success else {
				exit(withError: error)
			}

			Output.reportFailure(failureMessage(for: error))
			if case ToolError.unknownCommand = error {
				Output.note(UsageSummary.text)
			}

			Foundation.exit(failureStatus(for: error, parserStatus: status))
		}
	}

	/**
	The command and its options. `write` splits its own words (see
	``WriteCommand/Words``): the argument parser only gets its name, as it
	copies the list it collects once per word, so `-array` with 8,000 elements
	took seconds (quadratic).
	*/
	private static func parse(_ words: [String]) throws -> any ParsableCommand {
		guard words.first == WriteCommand.configuration.commandName else {
			return try parseAsRoot()
		}

		var write = try WriteCommand.parse([])
		write.arguments = Array(words.dropFirst())
		return write
	}

	/**
	The first word must be a command. A mistyped one (`defaults raed`) would be
	"2 unexpected arguments" to the argument parser; it is named, with the
	closest command, and the usage follows, as macOS's tool prints it. macOS's
	host options, which go before the command there, are refused with the reason.
	*/
	private static func refuseUnknownCommand(_ words: [String]) throws {
		guard let first = words.first else {
			return
		}

		// `defaults -currentHost read …`, as macOS takes it.
		if let option = MacOSOnlyOption(rawValue: first) {
			throw ToolError.notSupportedOnLinux(option)
		}

		if let error = UsageSummary.unknownCommand(first) {
			throw error
		}
	}

	/**
	The argument parser reads `-dash` as the short flags `-d -a -s -h`, and
	would print help for it; no option of the tool is several letters after
	one dash but `-globalDomain` (and `write`, which splits its own words), so
	such a word, before `--`, is a domain or key that must follow `--`.
	*/
	private static func refuseOptionLikeOperands(_ words: [String]) throws {
		guard let command = words.first, command != WriteCommand.configuration.commandName else {
			return
		}

		// `fleet write` takes values such as `-int` after its key, as `write` does.
		if command == FleetCommand.configuration.commandName, words.dropFirst().first == FleetWriteCommand.configuration.commandName {
			return
		}

		let operands = Array(words.dropFirst())
		for (index, word) in operands.enumerated().prefix(while: { $0.element != "--" })
		where word.count > 2 && word.hasPrefix("-") && !word.hasPrefix("--") && word != "-globalDomain" {
			if let option = MacOSOnlyOption(rawValue: word) {
				throw ToolError.notSupportedOnLinux(option)
			}

			throw ToolError.optionLike(at: index, of: operands, command: command)
		}
	}

	/// The tool's own message, or the first line of the argument parser's, lowercased to match.
	private static func failureMessage(for error: any Error) -> String {
		// The tool's own messages may quote user input with line breaks: keep them on one line.
		if let error = error as? ToolError {
			return error.description.replacingOccurrences(of: "\n", with: "\\n")
		}

		var line = message(for: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "\(error)"
		if line.hasPrefix("Error: ") {
			line.removeFirst("Error: ".count)
		}

		if let match = line.firstMatch(of: /^Unknown option '([^']+)'(?:. Did you mean '([^']+)')?/) {
			let suggestion = match.2.map { " (did you mean '\($0)'?)" } ?? ""
			return "unknown option '\(match.1)'\(suggestion); a domain or key that starts with '-' goes after '--' (see --help)"
		}

		return line.prefix(1).lowercased() + line.dropFirst()
	}

	/// 64 (`EX_USAGE`) for a wrong command line, 1 for a command that failed.
	private static func failureStatus(for error: any Error, parserStatus: ExitCode) -> Int32 {
		if let error = error as? ToolError {
			return error.isUsageError ? ExitCode.validationFailure.rawValue : ExitCode.failure.rawValue
		}

		return parserStatus == .validationFailure ? parserStatus.rawValue : ExitCode.failure.rawValue
	}
}
