import ArgumentParser
import Defaults
import Foundation

struct ImportCommand: ParsableCommand {
	static let usage = "defaults import <domain> <file|->"

	static let configuration = CommandConfiguration(
		commandName: "import",
		abstract: "Replace a domain with the dictionary in a file, or on standard input with '-'.",
		usage: "\(usage)\ndefaults import --path <file> <file|->",
		discussion: """
			The input is a property list (XML, binary or old-style) or a JSON object; in JSON, \
			{"$data": "<base64>"} is data and {"$date": "<ISO 8601>"} a date, as the Defaults \
			library's JSON export writes them. The domain keeps the version its migrations \
			reached (@Defaults.migrationVersion) unless the input has one.
			"""
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
		try DomainReplacement.check(imported, source: sourceName)
		try operands.refuseMissingFolder()
		let target = operands.target
		try operands.update { contents in
			contents = try DomainReplacement.contents(imported, replacing: contents, target: target)
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
			let parsed = try JSONValue.parse(data)
			guard case .dictionary(let contents) = parsed else {
				throw ToolError.unreadableInput(source: sourceName, reason: "expected a JSON object, found \(parsed.kindDescription)")
			}

			return try taggedValuesDecoded(contents, sourceName: sourceName)
		} catch let error as ToolError {
			throw error
		} catch {
			throw ToolError.unreadableInput(source: sourceName, reason: "not a property list or a JSON object (\(error))")
		}
	}

	/// JSON's values with the library's tags read, as `Defaults.importSettings` reads them: a JSON export's `{"$data": …}` is data and `{"$date": …}` a date.
	private static func taggedValuesDecoded(_ contents: [String: PropertyListValue], sourceName: String) throws -> [String: PropertyListValue] {
		var decoded: [String: PropertyListValue] = [:]
		for (key, value) in contents {
			do {
				decoded[key] = try StoredValueJSON.decodingTags(value)
			} catch {
				throw ToolError.unreadableInput(source: sourceName, reason: "'\(key)': \(error.reason)")
			}
		}

		return decoded
	}
}
