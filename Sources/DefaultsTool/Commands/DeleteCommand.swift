import ArgumentParser
import Defaults

struct DeleteCommand: ParsableCommand {
	static let usage = "defaults delete <domain> [<key>]"

	static let configuration = CommandConfiguration(
		commandName: "delete",
		abstract: "Remove a key, or a whole domain with its file.",
		usage: "\(usage)\ndefaults delete --path <file> [<key>]"
	)

	@OptionGroup var target: TargetOptions

	@Argument(help: ArgumentHelp("The domain, then optionally a key.", valueName: "domain> <key"))
	var arguments: [String] = []

	func run() throws {
		var operands = try target.resolve(arguments, usage: Self.usage)
		let key = operands.nextIfPresent()
		try operands.finish()
		let name = operands.name
		try operands.updateExisting { contents in
			if let key {
				guard contents?.removeValue(forKey: key) != nil else {
					throw ToolError.noSuchKey(key, domain: name)
				}
			} else {
				contents = nil
			}
		}
	}
}
