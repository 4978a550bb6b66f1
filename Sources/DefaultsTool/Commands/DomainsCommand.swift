import ArgumentParser
import Defaults

struct DomainsCommand: ParsableCommand {
	static let configuration = CommandConfiguration(
		commandName: "domains",
		abstract: "List the domains in the preferences folder."
	)

	@OptionGroup var output: OutputOptions

	func run() throws {
		let names = try persisting { try PreferencesFile.domainNames() }
		if output.json {
			Output.print(JSONFormat.render(.array(names.map(PropertyListValue.string)), pretty: false))
		} else if !names.isEmpty {
			Output.print(names.joined(separator: ", "))
		}
	}
}
