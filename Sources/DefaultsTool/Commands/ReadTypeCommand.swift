import ArgumentParser
import Defaults

struct ReadTypeCommand: ParsableCommand {
	static let usage = "defaults read-type <domain> <key>"

	static let configuration = CommandConfiguration(
		commandName: "read-type",
		abstract: "Print the type of a key's value (string, integer, float, boolean, date, data, array or dictionary).",
		usage: "\(usage)\ndefaults read-type --path <file> <key>"
	)

	@OptionGroup var target: TargetOptions
	@OptionGroup var output: OutputOptions

	@Argument(help: ArgumentHelp("The domain and the key.", valueName: "domain> <key"))
	var arguments: [String] = []

	func run() throws {
		var operands = try target.resolve(arguments, usage: Self.usage)
		let key = try operands.next("key")
		try operands.finish()
		guard let value = try operands.existingContents()[key] else {
			throw ToolError.noSuchKey(key, domain: operands.name)
		}

		Output.print(output.json ? JSONFormat.render(.string(value.readTypeName), pretty: false) : "Type is \(value.readTypeName)")
	}
}
