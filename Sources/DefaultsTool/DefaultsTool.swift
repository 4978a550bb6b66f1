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
			<domain>.plist; --path works on any property-list file instead of a domain.
			Examples:
			  defaults write com.example.demo greeting -string hello
			  defaults read com.example.demo greeting
			  defaults watch com.example.demo
			""",
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
		]
	)

	/// Runs the command; a failure is one line on standard error (`defaults: <reason>`) and a non-zero status.
	static func main() {
		do {
			var command = try parseAsRoot()
			try command.run()
		} catch {
			let status = exitCode(for: error)
			guard status != .success else {
				exit(withError: error)
			}

			// The tool's own messages may quote user input with line breaks: keep them on one line.
			let message = (error as? ToolError).map { $0.description.replacingOccurrences(of: "\n", with: "\\n") }
				?? message(for: error).split(whereSeparator: \.isNewline).first.map(String.init)
				?? "\(error)"
			Output.reportFailure(message)
			Foundation.exit(status.rawValue)
		}
	}
}
