import ArgumentParser
import Defaults
import Foundation

struct ImportCommand: ParsableCommand {
	static let usage = "defaults import <domain> <file|->"

	static let configuration = CommandConfiguration(
		commandName: "import",
		abstract: "Replace a domain with the dictionary in a file, or on standard input with '-'.",
		usage: "\(usage)\ndefaults import --path <file> <file|->",
		discussion: "The input is a property list (XML, binary or old-style) or a JSON object."
	)

	@OptionGroup var target: TargetOptions

	@Argument(help: ArgumentHelp("The domain and the source ('-' for standard input).", valueName: "domain> <file|-"))
	var arguments: [String] = []

	func run() throws {
		var operands = try target.resolve(arguments, usage: Self.usage)
		let source = try operands.next("source file (or '-')")
		try operands.finish()
		let (data, sourceName) = try read(source)
		let imported = try Self.dictionary(from: data, sourceName: sourceName)
		try operands.update { contents in
			contents = imported
		}
	}

	private func read(_ source: String) throws -> (Data, String) {
		if source == "-" {
			return (try Self.readInput(from: .standardInput, sourceName: "standard input"), "standard input")
		}

		// Read through a file handle, so pipes and devices (/dev/stdin, FIFOs, <(command)) work too.
		let path = TypedPath.expanded(source)
		guard let handle = FileHandle(forReadingAtPath: path) else {
			throw ToolError.unreadableInput(source: path, reason: "no such file, or not readable")
		}

		defer { try? handle.close() }
		return (try Self.readInput(from: handle, sourceName: path), path)
	}

	static func dictionary(from data: Data, sourceName: String) throws -> [String: PropertyListValue] {
		// Blank input would parse as an empty dictionary and wipe the domain.
		guard data.contains(where: { !Character(UnicodeScalar($0)).isWhitespace }) else {
			throw ToolError.unreadableInput(source: sourceName, reason: "it is empty; to empty the domain, use 'defaults delete'")
		}

		if let value = OldStylePropertyList.parse(data) {
			guard case .dictionary(let contents) = value else {
				throw ToolError.unreadableInput(source: sourceName, reason: "it holds \(value.kindDescription), not a dictionary")
			}

			return contents
		}

		do {
			guard case .dictionary(let contents) = try JSONValue.parse(data) else {
				throw ToolError.unreadableInput(source: sourceName, reason: "its JSON is not an object")
			}

			return contents
		} catch let error as ToolError {
			throw error
		} catch {
			throw ToolError.unreadableInput(source: sourceName, reason: "not a property list or a JSON object (\(error))")
		}
	}
}
