import Foundation

extension PropertyListValue {
	/**
	The name of the value's type as property lists spell it ("real" for a
	number with a fraction), for messages and errors.

	<!-- check: internal -->
	```swift
	PropertyListValue.double(0.5).typeName   // "real"
	```
	*/
	package var typeName: String {
		switch self {
		case .bool:
			"boolean"
		case .integer, .unsignedInteger:
			"integer"
		case .float, .double:
			"real"
		case .string:
			"string"
		case .data:
			"data"
		case .date:
			"date"
		case .array:
			"array"
		case .dictionary:
			"dictionary"
		}
	}

	/// The value's kind with its article, for messages: "a string", "an integer", "data".
	package var kindDescription: String {
		switch self {
		case .bool:
			"a boolean"
		case .integer, .unsignedInteger:
			"an integer"
		case .float, .double:
			"a real number"
		case .string:
			"a string"
		case .data:
			"data"
		case .date:
			"a date"
		case .array:
			"an array"
		case .dictionary:
			"a dictionary"
		}
	}

	/**
	Whether `other` is the same kind of value: both numbers (integers and reals
	alike, which exact conversions cross), both strings, and so on; containers
	are compared element by element, or, when decoding merged some (a `Set`'s
	duplicates, dictionary keys `01` and `1`), each element against the kinds
	the other holds.
	*/
	func hasSameKind(as other: PropertyListValue) -> Bool {
		switch (self, other) {
		case (.array(let elements), .array(let others)):
			Self.sameKinds(elements, others)
		case (.dictionary(let entries), .dictionary(let others)):
			Set(entries.keys) == Set(others.keys)
				? entries.allSatisfy { key, value in others[key].map(value.hasSameKind) ?? false }
				: Self.sameKinds(Array(entries.values), Array(others.values))
		default:
			kind == other.kind
		}
	}

	private static func sameKinds(_ values: [PropertyListValue], _ others: [PropertyListValue]) -> Bool {
		if values.count == others.count {
			return zip(values, others).allSatisfy { $0.hasSameKind(as: $1) }
		}

		return values.allSatisfy { value in others.contains { value.hasSameKind(as: $0) } }
	}

	private enum Kind {
		case bool, number, string, data, date, array, dictionary
	}

	private var kind: Kind {
		switch self {
		case .bool: .bool
		case .integer, .unsignedInteger, .float, .double: .number
		case .string: .string
		case .data: .data
		case .date: .date
		case .array: .array
		case .dictionary: .dictionary
		}
	}
}

extension PropertyListValue {
	/**
	The value as a message shows it: strings quoted, data by its size, dates
	in ISO 8601. Never traps: Foundation's `Date.description` does on a NaN
	date, which a hostile file or import can hold.
	*/
	package var messageText: String {
		switch self {
		case .bool(let value):
			"\(value)"
		case .integer(let value):
			"\(value)"
		case .unsignedInteger(let value):
			"\(value)"
		case .float(let value):
			"\(value)"
		case .double(let value):
			"\(value)"
		case .string(let value):
			"\"\(value)\""
		case .data(let value):
			"<\(value.count) bytes>"
		case .date(let value):
			Self.messageText(of: value)
		case .array(let values):
			"[" + values.map(\.messageText).joined(separator: ", ") + "]"
		case .dictionary(let entries):
			"{" + entries.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value.messageText)" }.joined(separator: ", ") + "}"
		}
	}

	/// A date for a message: ISO 8601 where it is a moment, else what it is.
	package static func messageText(of date: Date) -> String {
		let seconds = date.timeIntervalSinceReferenceDate
		guard seconds.isFinite else {
			return seconds.isNaN ? "a date that is not a number (NaN)" : "an infinite date"
		}

		return date.formatted(.iso8601)
	}
}

extension PropertyListValue {
	/**
	Whether the value nests containers more than `limit` levels deep (an array
	of scalars nests 1). Walks containers only, and stops at the first path
	that passes the limit.
	*/
	func nestsDeeper(than limit: Int) -> Bool {
		switch self {
		case .array(let elements):
			limit <= 0 ? true : elements.contains { $0.nestsDeeper(than: limit - 1) }
		case .dictionary(let entries):
			limit <= 0 ? true : entries.values.contains { $0.nestsDeeper(than: limit - 1) }
		default:
			false
		}
	}
}
