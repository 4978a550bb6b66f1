import ArgumentParser
import Defaults
import Foundation

struct DomainsCommand: ParsableCommand {
	static let configuration = CommandConfiguration(
		commandName: "domains",
		abstract: "List the domains in the preferences folder.",
		discussion: """
			Names are separated by ', '; a name with a line break, a comma or a backslash is \
			printed escaped (\\n, \\, and \\\\), so each name stays on the one line. --json prints \
			the names exactly. The files the library keeps beside the domains (locks, sync \
			ledgers, moved-aside files) are not domains and are not listed.
			"""
	)

	@OptionGroup var output: OutputOptions

	func run() throws {
		let names = try DomainFolder.domainNames()
		if output.json {
			Output.print(JSONFormat.render(.array(names.map(PropertyListValue.string)), pretty: false))
		} else if !names.isEmpty {
			Output.print(names.map(Self.escaped).joined(separator: ", "))
		}
	}

	/// One name on the one line, its separators and control characters escaped.
	static func escaped(_ name: String) -> String {
		var text = ""
		for scalar in name.unicodeScalars {
			switch scalar {
			case "\\":
				text += "\\\\"
			case ",":
				text += "\\,"
			case "\n":
				text += "\\n"
			case "\r":
				text += "\\r"
			case "\t":
				text += "\\t"
			case _ where scalar.value < 0x20 || scalar.value == 0x7F:
				text += String(format: "\\x%02x", scalar.value)
			default:
				text.unicodeScalars.append(scalar)
			}
		}

		return text
	}
}
