import Foundation

/**
A stored value written as the XML property-list element Foundation parses out
of a launch argument (`<integer>-5</integer>`, `<string>-x</string>`).

Foundation reads a bare argument value as text (so `-k 8` is the string "8"),
drops a value that starts with `-`, and parses one that starts with `(`, `{` or
`"` as an old-style property list; an element keeps the type and the exact
text. Dates with fractional seconds are written with them: Apple platforms
parse them, and on Linux, where the element stays text, the library reads it
back (see `LaunchArgumentReading`).
*/
enum LaunchArgumentFragment {
	static func text(of value: PropertyListValue) -> String {
		var text = ""
		append(value, to: &text)
		return text
	}

	private static func append(_ value: PropertyListValue, to text: inout String) {
		switch value {
		case .bool(let bool):
			text += bool ? "<true/>" : "<false/>"
		case .integer(let integer):
			text += "<integer>\(integer)</integer>"
		case .unsignedInteger(let integer):
			text += "<integer>\(integer)</integer>"
		case .float(let float):
			text += "<real>\(float)</real>"
		case .double(let double):
			text += "<real>\(double)</real>"
		case .string(let string):
			text += "<string>\(escaped(string))</string>"
		case .data(let data):
			text += "<data>\(data.base64EncodedString())</data>"
		case .date(let date):
			text += "<date>\(dateText(date))</date>"
		case .array(let elements):
			text += "<array>"
			for element in elements {
				append(element, to: &text)
			}

			text += "</array>"
		case .dictionary(let entries):
			text += "<dict>"
			for (key, element) in entries.sorted(by: { $0.key < $1.key }) {
				text += "<key>\(escaped(key))</key>"
				append(element, to: &text)
			}

			text += "</dict>"
		}
	}

	private static func escaped(_ string: String) -> String {
		var escaped = ""
		escaped.reserveCapacity(string.utf8.count)
		for character in string {
			switch character {
			case "&":
				escaped += "&amp;"
			case "<":
				escaped += "&lt;"
			case ">":
				escaped += "&gt;"
			default:
				escaped.append(character)
			}
		}

		return escaped
	}

	/// Whole seconds as property lists write them; fractional seconds only when the date has them.
	static func dateText(_ date: Date) -> String {
		let hasFraction = date.timeIntervalSinceReferenceDate.rounded(.down) != date.timeIntervalSinceReferenceDate
		return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: hasFraction))
	}
}
