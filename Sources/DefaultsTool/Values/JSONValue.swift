import Defaults
import Foundation

/**
Reads JSON into property-list values, keeping booleans, integers and reals
apart (which `JSONSerialization`'s `NSNumber`s do not reliably do on Linux).
JSON `null` has no property-list equivalent and is refused.
*/
struct JSONValue: Decodable {
	let value: PropertyListValue

	private struct Key: CodingKey {
		let stringValue: String
		var intValue: Int? { nil }

		init(stringValue: String) {
			self.stringValue = stringValue
		}

		init?(intValue: Int) {
			nil
		}
	}

	init(from decoder: any Decoder) throws {
		if let object = try? decoder.container(keyedBy: Key.self) {
			var entries: [String: PropertyListValue] = [:]
			for key in object.allKeys {
				entries[key.stringValue] = try object.decode(JSONValue.self, forKey: key).value
			}

			value = .dictionary(entries)
			return
		}

		if var array = try? decoder.unkeyedContainer() {
			var elements: [PropertyListValue] = []
			while !array.isAtEnd {
				elements.append(try array.decode(JSONValue.self).value)
			}

			value = .array(elements)
			return
		}

		let single = try decoder.singleValueContainer()
		if single.decodeNil() {
			throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "null has no property-list equivalent"))
		} else if let bool = try? single.decode(Bool.self) {
			value = .bool(bool)
		} else if let integer = try? single.decode(Int.self) {
			value = .integer(integer)
		} else if let integer = try? single.decode(UInt64.self) {
			value = .unsignedInteger(integer)
		} else if let real = try? single.decode(Double.self) {
			value = .double(real)
		} else {
			value = .string(try single.decode(String.self))
		}
	}

	/// Parses `text` as any JSON value; the error says where it went wrong.
	static func parse(_ text: String) throws -> PropertyListValue {
		try parse(Data(text.utf8))
	}

	static func parse(_ data: Data) throws -> PropertyListValue {
		do {
			return try JSONDecoder().decode(JSONValue.self, from: data).value
		} catch let DecodingError.dataCorrupted(context) {
			let path = context.codingPath.map(\.stringValue).joined(separator: ".")
			throw JSONValueError(reason: path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)")
		}
	}
}

struct JSONValueError: Error, CustomStringConvertible {
	let reason: String

	var description: String {
		reason
	}
}
