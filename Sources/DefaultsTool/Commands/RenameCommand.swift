import ArgumentParser
import Defaults

struct RenameCommand: ParsableCommand {
	static let usage = "defaults rename <domain> <old-key> <new-key>"

	static let configuration = CommandConfiguration(
		commandName: "rename",
		abstract: "Move a key's value to a new key, replacing any value there.",
		usage: "\(usage)\ndefaults rename --path <file> <old-key> <new-key>"
	)

	@OptionGroup var target: TargetOptions

	@Argument(help: ArgumentHelp("The domain, the key, and its new name.", valueName: "domain> <old-key> <new-key"))
	var arguments: [String] = []

	func run() throws {
		var operands = try target.resolve(arguments, usage: Self.usage)
		let oldKey = try operands.next("old key")
		let newKey = try operands.next("new key")
		try operands.finish()
		try StoredKeyName.check([newKey])
		let name = operands.name
		try operands.updateExisting { contents in
			guard let value = contents?.removeValue(forKey: oldKey) else {
				throw ToolError.noSuchKey(oldKey, domain: name)
			}

			contents?[newKey] = value
		}
	}
}
