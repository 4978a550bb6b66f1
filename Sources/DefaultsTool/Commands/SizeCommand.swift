import ArgumentParser
import Defaults
import Foundation

/// `defaults size`: what each key of a domain takes, largest first; read-only, and not one of macOS's verbs.
struct SizeCommand: ParsableCommand {
	static let usage = "defaults size <domain> [--json]"

	static let configuration = CommandConfiguration(
		commandName: "size",
		abstract: "Show what each key of a domain takes, largest first, and the total.",
		usage: "\(usage)\ndefaults size --path <file> [--json]",
		discussion: """
			Sizes are in bytes, as the library writes the domain (a binary property list): each \
			key's line counts its name, its value and their references; the total is the file \
			the values make, which is the entries' sum and a few dozen bytes of header and \
			trailer. The file's own size is shown too (a file another program wrote may differ), \
			and the most a preferences file may hold (64 MiB); an app's own size budget, set in \
			its code, is not known here. A file over that limit is not measured: the library \
			will not read it, so the command fails (status 1), giving the file's size, and \
			leaves the file as it is. Names print escaped as by 'domains'. --json prints \
			{"domain", "entries": [{"key", "bytes"}], "total", "fileBytes", "limit"}.
			"""
	)

	@OptionGroup var target: TargetOptions
	@OptionGroup var output: OutputOptions

	@Argument(help: ArgumentHelp("The domain.", valueName: "domain"))
	var arguments: [String] = []

	func run() throws {
		let operands = try target.resolve(arguments, usage: Self.usage)
		try operands.finish()
		let contents = try operands.existingContents()
		let report = Defaults.SizeReport(measuring: contents, budget: .platformDefault)
		// The file itself, through a symbolic link (a dotfile manager's): the link's own size means nothing here.
		var info = stat()
		let fileBytes = stat(operands.file.url.path, &info) == 0 ? Int(info.st_size) : 0
		let limit = Int(FileLimits.maximumFileSize)
		if output.json {
			let entries = report.entries.map { PropertyListValue.dictionary(["key": .string($0.name), "bytes": .integer($0.bytes)]) }
			let document: [String: PropertyListValue] = [
				"domain": .string(operands.name),
				"entries": .array(entries),
				"total": .integer(report.totalBytes),
				"fileBytes": .integer(fileBytes),
				"limit": .integer(limit),
			]
			Output.print(JSONFormat.render(.dictionary(document), pretty: true))
			return
		}

		let width = String(report.totalBytes).count
		for entry in report.entries {
			Output.print("\(Self.padded(entry.bytes, to: width))  \(DomainsCommand.escaped(entry.name))")
		}

		Output.print("\(Self.padded(report.totalBytes, to: width))  in all (the file: \(fileBytes) bytes, of the \(limit) a preferences file may hold)")
	}

	private static func padded(_ number: Int, to width: Int) -> String {
		let text = String(number)
		return String(repeating: " ", count: max(0, width - text.count)) + text
	}
}
