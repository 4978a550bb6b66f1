import Foundation

/**
A JSON value, decoded strictly: `true` is a boolean and `1` an integer, whatever
the platform's `JSONSerialization` would make of them, and an integer above
`Int.max` (a `UInt64`) stays exact. Exports are written with it and imports
read with it, so both agree on every platform.
*/
enum JSONValue: Codable, Equatable {
	case null
	case bool(Bool)
	case integer(Int)
	/// An integer above `Int.max`; smaller ones are ``integer(_:)``.
	case unsignedInteger(UInt64)
	case double(Double)
	case string(String)
	case array([JSONValue])
	case object([String: JSONValue])

	init(from decoder: any Decoder) throws {
		if var array = try? decoder.unkeyedContainer() {
			var elements: [JSONValue] = []
			while !array.isAtEnd {
				elements.append(try array.decode(JSONValue.self))
			}

			self = .array(elements)
			return
		}

		if let object = try? decoder.container(keyedBy: AnyCodingKey.self) {
			var entries: [String: JSONValue] = [:]
			for key in object.allKeys {
				entries[key.stringValue] = try object.decode(JSONValue.self, forKey: key)
			}

			self = .object(entries)
			return
		}

		let value = try decoder.singleValueContainer()
		if value.decodeNil() {
			self = .null
		} else if let bool = try? value.decode(Bool.self) {
			self = .bool(bool)
		} else if let integer = try? value.decode(Int.self) {
			self = .integer(integer)
		} else if let integer = try? value.decode(UInt64.self) {
			self = .unsignedInteger(integer)
		} else if let double = try? value.decode(Double.self) {
			self = .double(double)
		} else {
			self = .string(try value.decode(String.self))
		}
	}

	func encode(to encoder: any Encoder) throws {
		switch self {
		case .null:
			var value = encoder.singleValueContainer()
			try value.encodeNil()
		case .bool(let bool):
			var value = encoder.singleValueContainer()
			try value.encode(bool)
		case .integer(let integer):
			var value = encoder.singleValueContainer()
			try value.encode(integer)
		case .unsignedInteger(let integer):
			var value = encoder.singleValueContainer()
			try value.encode(integer)
		case .double(let double):
			var value = encoder.singleValueContainer()
			try value.encode(double)
		case .string(let string):
			var value = encoder.singleValueContainer()
			try value.encode(string)
		case .array(let elements):
			var array = encoder.unkeyedContainer()
			for element in elements {
				try array.encode(element)
			}
		case .object(let entries):
			var object = encoder.container(keyedBy: AnyCodingKey.self)
			for (key, value) in entries {
				try object.encode(value, forKey: AnyCodingKey(stringValue: key))
			}
		}
	}

	/// The JSON text of this value alone.
	var data: Data {
		get throws {
			try JSONEncoder().encode(self)
		}
	}
}

private struct AnyCodingKey: CodingKey {
	let stringValue: String
	var intValue: Int? { nil }

	init(stringValue: String) {
		self.stringValue = stringValue
	}

	init?(intValue: Int) {
		nil
	}
}

extension JSONValue {
	/// The value's kind for messages, with the value itself when it is short: `a string ("loud")`, `an object`.
	var kindDescription: String {
		let kind = switch self {
		case .null: "null"
		case .bool: "a boolean"
		case .integer, .unsignedInteger: "an integer"
		case .double: "a real number"
		case .string: "a string"
		case .array: "an array"
		case .object: "an object"
		}

		switch self {
		case .bool, .integer, .unsignedInteger, .double, .string:
			guard let text = try? String(decoding: data, as: UTF8.self) else {
				return kind
			}

			return "\(kind) (\(text.count > 40 ? String(text.prefix(37)) + "…" : text))"
		case .null, .array, .object:
			return kind
		}
	}

	/// The value at `path` (object members by name, array elements by index), as a decoding error names it.
	func value(at path: [any CodingKey]) -> JSONValue? {
		var current = self
		for key in path {
			switch current {
			case .object(let entries):
				guard let member = entries[key.stringValue] else {
					return nil
				}

				current = member
			case .array(let elements):
				guard let index = key.intValue, elements.indices.contains(index) else {
					return nil
				}

				current = elements[index]
			default:
				return nil
			}
		}

		return current
	}
}

/// Where in a value something is, as messages name it: `window.width`, `tags[2]`.
enum JSONPath {
	/// Joins object members with dots; array indexes, written `[n]`, follow what holds them.
	static func text(_ components: [String]) -> String {
		components.reduce(into: "") { text, component in
			text += text.isEmpty || component.hasPrefix("[") ? component : "." + component
		}
	}
}
