import ArgumentParser
import Defaults

struct ReadCommand: ParsableCommand {
	static let usage = "defaults read [<domain> [<key>]]"

	static let configuration = CommandConfiguration(
		commandName: "read",
		abstract: "Print a domain, one key of it, or every domain.",
		usage: "\(usage)\ndefaults read --path <file> [<key>]\ndefaults read <domain> [<key>] --show-origin",
		discussion: """
			--show-origin prints what a program reading the domain sees, with where each value \
			comes from and its file, tab-separated: forced (an administrator's forced value), \
			stored (the user's own), system-wide (an administrator's default) or global-domain. \
			Launch arguments and the app's registered defaults live in the running program, not \
			in files: a key set nowhere else reads as its registered default.
			  defaults read com.example.app proxy --show-origin
			"""
	)

	@OptionGroup var target: TargetOptions
	@OptionGroup var output: OutputOptions

	@Flag(name: .customLong("show-origin"), help: "Show the value a program sees, with where it comes from (\(ValueOrigins.layerNames.joined(separator: ", "))) and the file.")
	var showOrigin = false

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
		if showOrigin {
			return try printOrigins(of: key, in: operands)
		}

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

	private func printOrigins(of key: String?, in operands: Operands) throws {
		let origins = try ValueOrigins.read(operands)
		origins.noteIgnoredFiles()
		guard let key else {
			guard !origins.entries.isEmpty else {
				throw operands.missing
			}

			if output.json {
				Output.print(JSONFormat.render(.dictionary(origins.entries.mapValues(Self.json)), pretty: true))
			} else {
				for (name, entry) in origins.entries.sorted(by: { $0.key < $1.key }) {
					Output.print("\(entry.originName)\t\(entry.file.path)\t\(name) = \(TextFormat.render(entry.value, style: .singleLine))")
				}
			}
			return
		}

		guard let entry = origins.entries[key] else {
			throw ToolError.noSuchKey(key, domain: operands.name)
		}

		if output.json {
			Output.print(JSONFormat.render(Self.json(entry), pretty: true))
		} else {
			Output.print("\(entry.originName)\t\(entry.file.path)\t\(output.render(entry.value))")
		}
	}

	private static func json(_ entry: ValueOrigins.Entry) -> PropertyListValue {
		.dictionary(["value": entry.value, "origin": .string(entry.originName), "file": .string(entry.file.path)])
	}
}
