import Foundation

/**
A JSON value, decoded strictly: `true` is a boolean and `1` an integer, whatever
the platform's `JSONSerialization` would make of them. Exports are written with
it and imports read with it, so both agree on every platform.
*/
enum JSONValue: Codable, Equatable {
	case null
	case bool(Bool)
	case integer(Int)
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
