import Defaults
import Foundation

/**
Property-list values as JSON, written here rather than by `JSONSerialization`
so that reals stay reals (`1.0`, not `1`) and empty containers print as `{}`
and `[]`. Dates become ISO 8601 strings and data Base64 strings, the two kinds
JSON lacks. Keys are sorted.
*/
enum JSONFormat {
	static func render(_ value: PropertyListValue, pretty: Bool) -> String {
		var text = ""
		append(value, pretty: pretty, indent: 0, to: &text)
		return text
	}

	private static func append(_ value: PropertyListValue, pretty: Bool, indent: Int, to text: inout String) {
		switch value {
		case .bool(let bool):
			text += bool ? "true" : "false"
		case .integer(let integer):
			text += String(integer)
		case .unsignedInteger(let integer):
			text += String(integer)
		case .float(let float):
			text += float.isFinite ? real("\(float)") : "null"
		case .double(let double):
			text += double.isFinite ? real("\(double)") : "null"

		case .string(let string):
			text += quoted(string)
		case .data(let data):
			text += quoted(data.base64EncodedString())
		case .date(let date):
			text += quoted(DateText.iso8601(date))
		case .array(let elements):
			appendContainer("[", "]", elements.map { (nil, $0) }, pretty: pretty, indent: indent, to: &text)
		case .dictionary(let entries):
			let items = entries.sorted { $0.key < $1.key }.map { (Optional($0.key), $0.value) }
			appendContainer("{", "}", items, pretty: pretty, indent: indent, to: &text)
		}
	}

	private static func appendContainer(
		_ open: String,
		_ close: String,
		_ items: [(key: String?, value: PropertyListValue)],
		pretty: Bool,
		indent: Int,
		to text: inout String
	) {
		guard !items.isEmpty else {
			text += open + close
			return
		}

		let padding = pretty ? String(repeating: "  ", count: indent + 1) : ""
		text += open
		for (index, item) in items.enumerated() {
			text += (index == 0 ? "" : ",") + (pretty ? "\n" : "") + padding
			if let key = item.key {
				text += quoted(key) + (pretty ? ": " : ":")
			}

			append(item.value, pretty: pretty, indent: indent + 1, to: &text)
		}

		text += (pretty ? "\n" + String(repeating: "  ", count: indent) : "") + close
	}

	/// Swift's shortest text for a finite real (valid JSON, `1e+20` included), always with a fraction or exponent.
	private static func real(_ text: String) -> String {
		text.contains(where: { $0 == "." || $0 == "e" }) ? text : text + ".0"
	}

	private static func quoted(_ string: String) -> String {
		var result = "\""
		for scalar in string.unicodeScalars {
			switch scalar {
			case "\"":
				result += "\\\""
			case "\\":
				result += "\\\\"
			case "\n":
				result += "\\n"
			case "\r":
				result += "\\r"
			case "\t":
				result += "\\t"
			case _ where scalar.value < 0x20:
				result += String(format: "\\u%04x", scalar.value)
			default:
				result.unicodeScalars.append(scalar)
			}
		}

		return result + "\""
	}
}
