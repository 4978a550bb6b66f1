import Foundation

/**
Stored property-list values as JSON, and back.

JSON has no data or date: a `Data` value is written `{"$data": "<base64>"}`
and a date `{"$date": "2026-11-25T10:00:00.000Z"}` (to the millisecond), so an
export read back gives the same kinds of values. Numbers keep their kind where
JSON can tell (an integer stays one; a real number with no fraction comes back
as an integer, which every key reading a `Double` accepts).
*/
enum StoredValueJSON {
	static let dataTag = "$data"
	static let dateTag = "$date"

	/// `value` as JSON; `nil` for a number JSON cannot hold (NaN, an infinity).
	static func json(_ value: PropertyListValue) -> JSONValue? {
		switch value {
		case .bool(let bool):
			return .bool(bool)
		case .integer(let integer):
			return .integer(integer)
		case .unsignedInteger(let integer):
			return .double(Double(integer))
		case .float(let float):
			return float.isFinite ? .double(Double(float)) : nil
		case .double(let double):
			return double.isFinite ? .double(double) : nil
		case .string(let string):
			return .string(string)
		case .data(let data):
			return .object([dataTag: .string(data.base64EncodedString())])
		case .date(let date):
			return .object([dateTag: .string(JSONDates.string(from: date))])
		case .array(let elements):
			var converted: [JSONValue] = []
			for element in elements {
				guard let json = json(element) else {
					return nil
				}

				converted.append(json)
			}

			return .array(converted)
		case .dictionary(let entries):
			var converted: [String: JSONValue] = [:]
			for (key, element) in entries {
				guard let json = json(element) else {
					return nil
				}

				converted[key] = json
			}

			return .object(converted)
		}
	}

	/// The stored value `json` stands for; `nil` for `null`, which a property list cannot hold, or a malformed tag.
	static func propertyList(_ json: JSONValue) -> PropertyListValue? {
		switch json {
		case .null:
			return nil
		case .bool(let bool):
			return .bool(bool)
		case .integer(let integer):
			return .integer(integer)
		case .double(let double):
			return .double(double)
		case .string(let string):
			return .string(string)
		case .array(let elements):
			var converted: [PropertyListValue] = []
			for element in elements {
				guard let value = propertyList(element) else {
					return nil
				}

				converted.append(value)
			}

			return .array(converted)
		case .object(let entries):
			if entries.count == 1, case .string(let text)? = entries[dataTag] {
				return Data(base64Encoded: text).map(PropertyListValue.data)
			}

			if entries.count == 1, case .string(let text)? = entries[dateTag] {
				return JSONDates.date(from: text).map(PropertyListValue.date)
			}

			var converted: [String: PropertyListValue] = [:]
			for (key, element) in entries {
				guard let value = propertyList(element) else {
					return nil
				}

				converted[key] = value
			}

			return .dictionary(converted)
		}
	}
}

/// Dates in exported JSON: ISO 8601 in UTC, to the millisecond.
enum JSONDates {
	static func string(from date: Date) -> String {
		formatter(fractional: true).string(from: date)
	}

	/// Reads ISO 8601 with or without fractional seconds.
	static func date(from text: String) -> Date? {
		formatter(fractional: true).date(from: text) ?? formatter(fractional: false).date(from: text)
	}

	/// A new formatter per use: `ISO8601DateFormatter` is not `Sendable`, and imports and exports are rare.
	private static func formatter(fractional: Bool) -> ISO8601DateFormatter {
		let formatter = ISO8601DateFormatter()
		formatter.formatOptions = fractional ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
		return formatter
	}

	/// The strategies typed values are encoded and decoded with, matching the raw values' form.
	static func configure(_ encoder: JSONEncoder) {
		encoder.dateEncodingStrategy = .custom { date, encoder in
			var container = encoder.singleValueContainer()
			try container.encode(string(from: date))
		}
	}

	static func configure(_ decoder: JSONDecoder) {
		decoder.dateDecodingStrategy = .custom { decoder in
			let container = try decoder.singleValueContainer()
			let text = try container.decode(String.self)
			guard let date = date(from: text) else {
				throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 date: \(text)")
			}

			return date
		}
	}
}
