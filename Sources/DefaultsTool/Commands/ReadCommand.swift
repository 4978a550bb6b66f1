import ArgumentParser
import Defaults

struct ReadCommand: ParsableCommand {
	static let usage = "defaults read [<domain> [<key>]]"

	static let configuration = CommandConfiguration(
		commandName: "read",
		abstract: "Print a domain, one key of it, or every domain.",
		usage: "\(usage)\ndefaults read --path <file> [<key>]"
	)

	@OptionGroup var target: TargetOptions
	@OptionGroup var output: OutputOptions

	@Argument(help: ArgumentHelp("The domain, then optionally a key.", valueName: "domain> <key"))
	var arguments: [String] = []

	func run() throws {
		if arguments.isEmpty, target.path == nil, !target.globalDomain {
			let domains = try AllDomains.load()
			Output.print(output.render(.dictionary(domains.contents.mapValues(PropertyListValue.dictionary))))
			try domains.failIfAnyUnreadable()
			return
		}

		var operands = try target.resolve(arguments, usage: Self.usage)
		let key = operands.nextIfPresent()
		try operands.finish()
		let contents = try operands.existingContents()
		if let key {
			guard let value = contents[key] else {
				throw ToolError.noSuchKey(key, domain: operands.name)
			}

			Output.print(output.render(value))
		} else {
			Output.print(output.render(.dictionary(contents)))
		}
	}
}
