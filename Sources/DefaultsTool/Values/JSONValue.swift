import Defaults
import Foundation

/**
Reads JSON into property-list values. `JSONSerialization` reports each
number's kind, so `1` stays an integer, `1.0` a real and `true` a boolean; for
a repeated key the last value wins. JSON `null` has no property-list
equivalent and is refused.
*/
enum JSONValue {
	static func parse(_ text: String) throws(JSONValueError) -> PropertyListValue {
		try parse(Data(text.utf8))
	}

	static func parse(_ data: Data) throws(JSONValueError) -> PropertyListValue {
		let object: Any
		do {
			object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
		} catch {
			let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
			throw JSONValueError(reason: detail ?? "not valid JSON")
		}

		return try value(of: object, at: [])
	}

	private static func value(of object: Any, at path: [String]) throws(JSONValueError) -> PropertyListValue {
		switch object {
		case let number as NSNumber where type(of: object) is NSNumber.Type:
			// `c` is how JSONSerialization marks true and false.
			return String(cString: number.objCType) == "c" ? .bool(number.boolValue) : PropertyListValue(number: number)
		case let string as String:
			return .string(string)
		case let bool as Bool:
			return .bool(bool)
		case let array as [Any]:
			var elements: [PropertyListValue] = []
			for (index, element) in array.enumerated() {
				elements.append(try value(of: element, at: path + ["[\(index)]"]))
			}

			return .array(elements)
		case let dictionary as [String: Any]:
			var entries: [String: PropertyListValue] = [:]
			for (key, element) in dictionary {
				entries[key] = try value(of: element, at: path + [key])
			}

			return .dictionary(entries)
		default:
			let location = path.isEmpty ? "" : " at \(path.joined(separator: "."))"
			throw JSONValueError(reason: "null\(location) has no property-list equivalent")
		}
	}
}

struct JSONValueError: Error, CustomStringConvertible {
	let reason: String

	var description: String {
		reason
	}
}
