import ArgumentParser
import Defaults
import Foundation

/// What `defaults write` does to a key.
enum WriteAction: Equatable {
	/// Stores the value, replacing what was there.
	case set(PropertyListValue)
	/// Appends to the array stored under the key (creating it).
	case appendToArray([PropertyListValue])
	/// Adds entries to the dictionary stored under the key (creating it).
	case mergeIntoDictionary([String: PropertyListValue])
}

/**
Turns the value arguments of `defaults write` into a property-list value.

The forms are macOS's: `-string`, `-int`, `-float`, `-bool`, `-date`,
`-data` take one value; `-array`/`-array-add` take elements and
`-dict`/`-dict-add` take key–value pairs, each element or value a plain
string or a type flag followed by its value (`-array -int 1 -int 2`); `-json`
takes any JSON value. A value without a flag is a string, or an old-style
property list when it starts with `(`, `{` or `<`.
*/
enum ValueParser {
	private enum Flag: String {
		case string, int, float, bool, date, data, json, array, arrayAdd = "array-add", dict, dictAdd = "dict-add"

		private static let aliases: [String: Flag] = ["integer": .int, "double": .float, "real": .float, "boolean": .bool]

		init?(argument: String) {
			guard argument.hasPrefix("-") else {
				return nil
			}

			let name = argument.drop { $0 == "-" }.lowercased()
			guard let flag = Flag(rawValue: name) ?? Self.aliases[name] else {
				return nil
			}

			self = flag
		}

		/**
		The type a word names, or `nil` for a plain value. A word that starts
		with `-` is a type unless it is a number (`-5`, `-.5`); `-h` and
		`--help` ask for help, and anything else is a mistyped type (`-itn`),
		refused rather than stored as text.
		*/
		init?(word: String) throws {
			guard word.hasPrefix("-"), !Self.isNumber(word) else {
				return nil
			}

			if let flag = Flag(argument: word) {
				self = flag
				return
			}

			if ["-h", "-help", "--help"].contains(word) {
				throw HelpRequest()
			}

			throw ToolError.unknownTypeFlag(word)
		}

		private static func isNumber(_ word: String) -> Bool {
			let afterSign = word.dropFirst()
			guard let first = afterSign.first, first.isASCII, first.isNumber || first == "." else {
				return false
			}

			return Double(afterSign) != nil
		}
	}

	/// Every flag `write` understands, for help text.
	static let flagSummary = "-string, -int, -float, -bool, -date, -data, -json, -array, -array-add, -dict, -dict-add"

	/// A word that asks for help where a value was expected: the command's help is printed.
	private struct HelpRequest: Error {}

	/// The value of `command` (`write` or `fleet write`) from its words after the key; `usage`: the command's, for its usage errors.
	static func parse(_ arguments: ArraySlice<String>, of command: any ParsableCommand.Type, usage: String) throws -> WriteAction {
		do {
			return try parse(arguments, usage: usage)
		} catch is HelpRequest {
			throw CleanExit.helpRequest(command)
		}
	}

	private static func parse(_ arguments: ArraySlice<String>, usage: String) throws -> WriteAction {
		var arguments = arguments
		guard let first = arguments.popFirst() else {
			throw ToolError.missingOperand("value", usage: usage)
		}

		guard let flag = try Flag(word: first) else {
			try expectEnd(arguments, usage: usage)
			return .set(try untyped(first))
		}

		switch flag {
		case .array, .arrayAdd:
			let elements = try elements(&arguments, in: flag)
			return flag == .array ? .set(.array(elements)) : .appendToArray(elements)
		case .dict, .dictAdd:
			let entries = try entries(&arguments, in: flag)
			return flag == .dict ? .set(.dictionary(entries)) : .mergeIntoDictionary(entries)
		default:
			guard let text = arguments.popFirst() else {
				throw ToolError.missingValue(type: flag.rawValue)
			}

			try expectEnd(arguments, usage: usage)
			return .set(try scalar(flag, text))
		}
	}

	private static func expectEnd(_ arguments: ArraySlice<String>, usage: String) throws {
		if let extra = arguments.first {
			throw ToolError.unexpectedOperand(extra, usage: usage)
		}
	}

	/// One element or dictionary value: a type flag and its value, or a plain string.
	private static func element(_ arguments: inout ArraySlice<String>, in container: Flag) throws -> PropertyListValue? {
		guard let first = arguments.popFirst() else {
			return nil
		}

		guard let flag = try Flag(word: first) else {
			return .string(first)
		}

		switch flag {
		case .array, .arrayAdd, .dict, .dictAdd:
			throw ToolError.invalidValue(first, type: container.rawValue, expected: "plain values or scalar flags such as -int; nest containers with -json")
		default:
			guard let text = arguments.popFirst() else {
				throw ToolError.missingValue(type: flag.rawValue)
			}

			return try scalar(flag, text)
		}
	}

	private static func elements(_ arguments: inout ArraySlice<String>, in container: Flag) throws -> [PropertyListValue] {
		var elements: [PropertyListValue] = []
		while let element = try element(&arguments, in: container) {
			elements.append(element)
		}

		return elements
	}

	private static func entries(_ arguments: inout ArraySlice<String>, in container: Flag) throws -> [String: PropertyListValue] {
		var entries: [String: PropertyListValue] = [:]
		while let key = arguments.popFirst() {
			guard let value = try element(&arguments, in: container) else {
				throw ToolError.invalidValue(key, type: container.rawValue, expected: "a value after the key")
			}

			entries[key] = value
		}

		return entries
	}

	/// Text, or an old-style property list when it starts with `(`, `{` or `<`, which must then parse.
	private static func untyped(_ text: String) throws -> PropertyListValue {
		guard let first = text.first, "({<".contains(first) else {
			return .string(text)
		}

		guard let value = OldStylePropertyList.parse(Data(text.utf8)) else {
			throw ToolError.unparsableValue(text)
		}

		return value
	}

	private static func scalar(_ flag: Flag, _ text: String) throws -> PropertyListValue {
		switch flag {
		case .string:
			return .string(text)
		case .int:
			if let value = Int(text) {
				return .integer(value)
			}

			if let value = UInt64(text) {
				return .unsignedInteger(value)
			}

			throw ToolError.invalidValue(text, type: "int", expected: "a whole number from \(Int.min) to \(UInt64.max)")
		case .float:
			guard let value = Double(text), value.isFinite else {
				throw ToolError.invalidValue(text, type: "float", expected: "a finite number such as 0.5 or 1e-3")
			}

			return .double(value)
		case .bool:
			switch text.lowercased() {
			case "true", "yes", "1":
				return .bool(true)
			case "false", "no", "0":
				return .bool(false)
			default:
				throw ToolError.invalidValue(text, type: "bool", expected: "true, false, yes, no, 1 or 0")
			}
		case .date:
			guard let date = DateText.parse(text) else {
				if let impossibility = CalendarDate.impossibility(in: text) {
					throw ToolError.invalidValue(text, type: "date", expected: "a date that exists (\(impossibility))")
				}

				throw ToolError.invalidValue(text, type: "date", expected: "ISO 8601 such as 2026-11-22T08:30:00Z, '2026-11-22 08:30:00 +0000', 2026-11-22 or now")
			}

			return .date(date)
		case .data:
			guard let data = hexData(text) else {
				throw ToolError.invalidValue(text, type: "data", expected: "an even number of hexadecimal digits such as 0a1b2c")
			}

			return .data(data)
		case .json:
			do {
				return try JSONValue.parse(text)
			} catch {
				throw ToolError.invalidValue(text, type: "json", expected: "JSON (\(error))")
			}
		case .array, .arrayAdd, .dict, .dictAdd:
			preconditionFailure("containers are parsed by elements(_:) and entries(_:)")
		}
	}

	/// Hexadecimal digits, optionally as `0x…` or `<…>` with spaces, as `defaults read` prints data.
	private static func hexData(_ text: String) -> Data? {
		var digits = Substring(text.filter { !$0.isWhitespace })
		if digits.hasPrefix("<"), digits.hasSuffix(">") {
			digits = digits.dropFirst().dropLast()
		} else if digits.lowercased().hasPrefix("0x") {
			digits = digits.dropFirst(2)
		}

		guard digits.count.isMultiple(of: 2), digits.allSatisfy(\.isHexDigit) else {
			return nil
		}

		var data = Data(capacity: digits.count / 2)
		var index = digits.startIndex
		while index < digits.endIndex {
			let next = digits.index(index, offsetBy: 2)
			guard let byte = UInt8(digits[index..<next], radix: 16) else {
				return nil
			}

			data.append(byte)
			index = next
		}

		return data
	}
}
