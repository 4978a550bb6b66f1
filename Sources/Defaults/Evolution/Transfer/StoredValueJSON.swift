import Foundation

/**
Stored property-list values as JSON, and back.

JSON has no data or date: a `Data` value is written `{"$data": "<base64>"}`
and a date `{"$date": "2026-11-25T10:00:00.000Z"}` (to the millisecond), so an
export read back gives the same kinds of values. A dictionary of the user's
that could read as a tag, one whose only key is `$data` or `$date` (or that
with more `$`s in front), is written with one more `$` in front of its key
(`{"$$date": …}`), and reading takes that `$` away again: only an exported
`Data` or date reads back as one. Files written before that escape read back
as they always did, unless they hold a one-member dictionary keyed `$$data` or
`$$date` (and so on), which now loses a `$`.

Numbers keep their kind where JSON can tell (an integer stays one, an integer
above `Int64.max` stays exact; a real number with no fraction comes back as an
integer, which every key reading a `Double` accepts).
*/
package enum StoredValueJSON {
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
			return .unsignedInteger(integer)
		case .float(let float):
			return float.isFinite ? .double(Double(float)) : nil
		case .double(let double):
			return double.isFinite ? .double(double) : nil
		case .string(let string):
			return .string(string)
		case .data(let data):
			return .object([dataTag: .string(data.base64EncodedString())])
		case .date(let date):
			return JSONDates.exactString(from: date).map { .object([dateTag: .string($0)]) }
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

				converted[entries.count == 1 ? escaped(key) : key] = json
			}

			return .object(converted)
		}
	}

	/**
	`value` in the tagged form ``json(_:)`` gives it, as property-list values: data is
	the one-member dictionary `["$data": "<base64>"]`, a date `["$date": "<ISO 8601>"]`,
	a look-alike dictionary escaped. For a writer of JSON of its own (the `defaults`
	tool's `fleet read --json`), so it prints what an export holds; `nil` as for ``json(_:)``.
	*/
	package static func tagged(_ value: PropertyListValue) -> PropertyListValue? {
		// `json(_:)` never gives `null`, the one JSON value `plain` refuses.
		json(value).flatMap { try? plain($0, at: []) }
	}

	/// The stored value `json` stands for, its tags and escapes read; `null`, which a property list cannot hold, and a malformed tag are refused.
	static func propertyList(_ json: JSONValue) throws(TransferProblem) -> PropertyListValue {
		try decodingTags(plain(json, at: []))
	}

	/**
	Reads the tags of a value parsed from JSON: `{"$data": "<base64>"}` is
	`Data`, `{"$date": "<ISO 8601>"}` a date, and an escaped look-alike
	(`{"$$date": …}`) the one-member dictionary it stands for (`{"$date": …}`).
	The `defaults` tool reads its JSON input through it, so both read the
	library's exports alike.
	*/
	package static func decodingTags(_ value: PropertyListValue) throws(TransferProblem) -> PropertyListValue {
		try decodingTags(value, at: [])
	}

	/// The JSON of a typed value as it is exported: one-member objects whose key looks like a tag escaped, as ``json(_:)`` escapes stored dictionaries.
	static func escapingLookalikes(_ json: JSONValue) -> JSONValue {
		renamingSingleKeys(json, escaped)
	}

	/// The JSON a typed value is decoded from on import: escaped look-alikes back to their keys (tags are left for ``propertyList(_:)``).
	static func unescapingLookalikes(_ json: JSONValue) -> JSONValue {
		renamingSingleKeys(json, unescaped)
	}

	/// Whether a one-member object's key could be taken for a tag: `$data`, `$date`, or either with more `$`s in front.
	private static func isTagLookalike(_ key: String) -> Bool {
		let name = key.drop { $0 == "$" }
		return name.count < key.count && (name == dataTag.dropFirst() || name == dateTag.dropFirst())
	}

	/// The key a one-member dictionary is exported with.
	private static func escaped(_ key: String) -> String {
		isTagLookalike(key) ? "$" + key : key
	}

	/// The key of a one-member object read back: `$data` and `$date` are tags, not escapes, and keep theirs.
	private static func unescaped(_ key: String) -> String {
		isTagLookalike(key) && key.hasPrefix("$$") ? String(key.dropFirst()) : key
	}

	private static func renamingSingleKeys(_ json: JSONValue, _ rename: (String) -> String) -> JSONValue {
		switch json {
		case .array(let elements):
			return .array(elements.map { renamingSingleKeys($0, rename) })
		case .object(let entries):
			var renamed: [String: JSONValue] = [:]
			for (key, element) in entries {
				renamed[entries.count == 1 ? rename(key) : key] = renamingSingleKeys(element, rename)
			}

			return .object(renamed)
		case .null, .bool, .integer, .unsignedInteger, .double, .string:
			return json
		}
	}

	/// JSON's values as they are, tags and escapes included.
	private static func plain(_ json: JSONValue, at path: [String]) throws(TransferProblem) -> PropertyListValue {
		switch json {
		case .null:
			throw TransferProblem(reason: "null\(location(path)) cannot be stored (a property list has no null)")
		case .bool(let bool):
			return .bool(bool)
		case .integer(let integer):
			return .integer(integer)
		case .unsignedInteger(let integer):
			return .unsignedInteger(integer)
		case .double(let double):
			return .double(double)
		case .string(let string):
			return .string(string)
		case .array(let elements):
			var converted: [PropertyListValue] = []
			for (index, element) in elements.enumerated() {
				converted.append(try plain(element, at: path + ["[\(index)]"]))
			}

			return .array(converted)
		case .object(let entries):
			var converted: [String: PropertyListValue] = [:]
			for (key, element) in entries {
				converted[key] = try plain(element, at: path + [key])
			}

			return .dictionary(converted)
		}
	}

	private static func decodingTags(_ value: PropertyListValue, at path: [String]) throws(TransferProblem) -> PropertyListValue {
		switch value {
		case .dictionary(let entries) where entries.count == 1:
			let (key, element) = entries.first!
			switch (key, element) {
			case (dataTag, .string(let text)):
				guard let data = Data(base64Encoded: text) else {
					throw TransferProblem(reason: "malformed $data value\(location(path)): not Base64")
				}

				return .data(data)
			case (dateTag, .string(let text)):
				guard let date = JSONDates.date(from: text) else {
					throw TransferProblem(reason: "malformed $date value\(location(path)): \(JSONDates.problem(with: text))")
				}

				return .date(date)
			default:
				return .dictionary([unescaped(key): try decodingTags(element, at: path + [key])])
			}
		case .dictionary(let entries):
			var decoded: [String: PropertyListValue] = [:]
			for (key, element) in entries {
				decoded[key] = try decodingTags(element, at: path + [key])
			}

			return .dictionary(decoded)
		case .array(let elements):
			var decoded: [PropertyListValue] = []
			for (index, element) in elements.enumerated() {
				decoded.append(try decodingTags(element, at: path + ["[\(index)]"]))
			}

			return .array(decoded)
		case .bool, .integer, .unsignedInteger, .float, .double, .string, .data, .date:
			return value
		}
	}

	private static func location(_ path: [String]) -> String {
		path.isEmpty ? "" : " at \(JSONPath.text(path))"
	}
}

/// Dates in exported JSON: ISO 8601 in UTC, to the millisecond.
enum JSONDates {
	static func string(from date: Date) -> String {
		formatter(fractional: true).string(from: date)
	}

	/**
	The text of `date` when it reads back as the same date (to the
	millisecond); `nil` for a date the text cannot hold: NaN, an infinity, or
	a moment so far from ours that Foundation's ISO 8601 text garbles it
	(before the year 1, after 9999), which export refuses as it refuses NaN.
	*/
	static func exactString(from date: Date) -> String? {
		let seconds = date.timeIntervalSinceReferenceDate
		guard seconds.isFinite else {
			return nil
		}

		let text = string(from: date)
		guard let back = self.date(from: text), abs(back.timeIntervalSinceReferenceDate - seconds) < 0.001 else {
			return nil
		}

		return text
	}

	/// Reads ISO 8601 with or without fractional seconds; a date that does not exist (February 30) is no date.
	static func date(from text: String) -> Date? {
		guard CalendarDate.impossibility(in: text) == nil else {
			return nil
		}

		return formatter(fractional: true).date(from: text) ?? formatter(fractional: false).date(from: text)
	}

	/// Why `text` is no date, for messages.
	static func problem(with text: String) -> String {
		"'\(text)' is not an ISO 8601 date" + (CalendarDate.impossibility(in: text).map { " (\($0))" } ?? "")
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
			guard let text = exactString(from: date) else {
				throw EncodingError.invalidValue(date, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "JSON text cannot hold the date \(PropertyListValue.messageText(of: date))"))
			}

			try container.encode(text)
		}
	}

	static func configure(_ decoder: JSONDecoder) {
		decoder.dateDecodingStrategy = .custom { decoder in
			let container = try decoder.singleValueContainer()
			let text = try container.decode(String.self)
			guard let date = date(from: text) else {
				throw DecodingError.dataCorruptedError(in: container, debugDescription: problem(with: text))
			}

			return date
		}
	}
}
