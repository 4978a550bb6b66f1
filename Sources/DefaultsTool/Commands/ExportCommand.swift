import ArgumentParser
import Defaults
import Foundation

struct ExportCommand: ParsableCommand {
	static let usage = "defaults export <domain> <file|->"

	static let configuration = CommandConfiguration(
		commandName: "export",
		abstract: "Write a domain to a property-list file, or to standard output with '-'.",
		usage: "\(usage)\ndefaults export --path <file> <file|->",
		discussion: """
			XML is readable but, as Foundation writes it on Linux, keeps dates to the whole \
			second; --format binary keeps every value exactly.
			"""
	)

	enum Format: String, ExpressibleByArgument, CaseIterable {
		case xml, binary

		var propertyListFormat: PropertyListSerialization.PropertyListFormat {
			self == .xml ? .xml : .binary
		}
	}

	@OptionGroup var target: TargetOptions

	@Option(help: "The property-list format to write.")
	var format: Format = .xml

	@Argument(help: ArgumentHelp("The domain and the destination ('-' for standard output).", valueName: "domain> <file|-"))
	var arguments: [String] = []

	func run() throws {
		var operands = try target.resolve(arguments, usage: Self.usage)
		let destination = try operands.next("destination file (or '-')")
		try operands.finish()
		let contents = try operands.existingContents()
		let data = try PropertyListSerialization.data(
			fromPropertyList: contents.mapValues(\.object),
			format: format.propertyListFormat,
			options: 0
		)

		if destination == "-" {
			Output.write(data)
		} else {
			try OutputFile.write(data, to: TypedPath.expanded(destination))
		}
	}
}
