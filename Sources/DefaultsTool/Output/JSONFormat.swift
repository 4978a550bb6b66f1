import Defaults
import Foundation

/// Property-list values as JSON: dates become ISO 8601 strings and data Base64 strings, the two kinds JSON lacks.
enum JSONFormat {
	static func render(_ value: PropertyListValue, pretty: Bool) throws -> String {
		var options: JSONSerialization.WritingOptions = [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]
		if pretty {
			options.insert(.prettyPrinted)
		}

		let data = try JSONSerialization.data(withJSONObject: jsonObject(value), options: options)
		return String(decoding: data, as: UTF8.self)
	}

	static func jsonObject(_ value: PropertyListValue) -> Any {
		switch value {
		case .bool(let bool):
			bool
		case .integer(let integer):
			integer
		case .unsignedInteger(let integer):
			integer
		case .float(let float):
			// Through its shortest text, so 0.1 as a Float prints as 0.1, not 0.10000000149011612.
			Double("\(float)") ?? Double(float)
		case .double(let double):
			double
		case .string(let string):
			string
		case .data(let data):
			data.base64EncodedString()
		case .date(let date):
			DateText.iso8601(date)
		case .array(let elements):
			elements.map(jsonObject)
		case .dictionary(let entries):
			entries.mapValues(jsonObject)
		}
	}
}
