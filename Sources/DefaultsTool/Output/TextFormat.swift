import Defaults
import Foundation

/**
The old-style property-list text macOS's `defaults read` prints:

```
{
    count = 8;
    greeting = "hello world";
    tags = (
        swift,
        linux
    );
}
```

Keys are sorted, strings are quoted only when they need it, booleans print as
`1`/`0`, dates as `"2026-11-22 08:30:00 +0000"` and data as `<0a1b2c>`.
*/
enum TextFormat {
	enum Style {
		/// A value printed on its own: strings and dates bare, containers across lines.
		case topLevel
		/// Inside a container: strings quoted when needed, containers across lines.
		case nested
		/// On one line, for `watch`.
		case singleLine
	}

	static func render(_ value: PropertyListValue, style: Style) -> String {
		var text = ""
		append(value, style: style, indent: 0, to: &text)
		return text
	}

	private static let indentUnit = "    "

	private static func append(_ value: PropertyListValue, style: Style, indent: Int, to text: inout String) {
		switch value {
		case .string(let string):
			text += style == .topLevel ? string : quotedIfNeeded(string)
		case .date(let date):
			text += style == .topLevel ? DateText.text(date) : "\"\(DateText.text(date))\""
		case .bool(let bool):
			text += bool ? "1" : "0"
		case .integer(let integer):
			text += String(integer)
		case .unsignedInteger(let integer):
			text += String(integer)
		case .float(let float):
			text += "\(float)"
		case .double(let double):
			text += "\(double)"
		case .data(let data):
			text += "<" + data.map { String(format: "%02x", $0) }.joined() + ">"
		case .array(let elements):
			appendContainer(open: "(", close: ")", items: elements.map { (nil, $0) }, separator: ",", style: style, indent: indent, to: &text)
		case .dictionary(let entries):
			let items = entries.sorted { $0.key < $1.key }.map { (Optional($0.key), $0.value) }
			appendContainer(open: "{", close: "}", items: items, separator: ";", style: style, indent: indent, to: &text)
		}
	}

	private static func appendContainer(
		open: String,
		close: String,
		items: [(key: String?, value: PropertyListValue)],
		separator: String,
		style: Style,
		indent: Int,
		to text: inout String
	) {
		let isDictionary = open == "{"
		if style == .singleLine {
			text += open
			for (index, item) in items.enumerated() {
				if let key = item.key {
					text += "\(quotedIfNeeded(key)) = "
				}

				append(item.value, style: .singleLine, indent: 0, to: &text)
				if isDictionary || index < items.count - 1 {
					text += separator + (index < items.count - 1 ? " " : "")
				}
			}

			text += close
			return
		}

		guard !items.isEmpty else {
			text += open + close
			return
		}

		let padding = String(repeating: indentUnit, count: indent + 1)
		text += open + "\n"
		for (index, item) in items.enumerated() {
			text += padding
			if let key = item.key {
				text += "\(quotedIfNeeded(key)) = "
			}

			append(item.value, style: .nested, indent: indent + 1, to: &text)
			if isDictionary || index < items.count - 1 {
				text += separator
			}

			text += "\n"
		}

		text += String(repeating: indentUnit, count: indent) + close
	}

	/// Bare when the string is a word old-style property lists read back unquoted; quoted and escaped otherwise.
	static func quotedIfNeeded(_ string: String) -> String {
		let isPlainWord = !string.isEmpty
			&& !string.contains("//") && !string.contains("/*")
			&& string.unicodeScalars.allSatisfy { scalar in
				scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "_$/:.-".unicodeScalars.contains(scalar))
			}
		if isPlainWord {
			return string
		}

		var escaped = "\""
		for character in string {
			switch character {
			case "\"":
				escaped += "\\\""
			case "\\":
				escaped += "\\\\"
			case "\n":
				escaped += "\\n"
			case "\t":
				escaped += "\\t"
			default:
				escaped.append(character)
			}
		}

		return escaped + "\""
	}
}
