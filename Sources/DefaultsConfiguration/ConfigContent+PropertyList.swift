#if Configuration
import Configuration
import Defaults
import Foundation

extension ConfigContent {
	/**
	A stored value as `type`, or `nil` when it cannot be one.

	Numbers convert when nothing is lost: an integer reads as a double, a real
	number with no fraction as an integer. Nothing else is coerced — not a
	string to a number or a boolean, not a number to a boolean — so a value
	stored with the wrong type is reported rather than guessed at. An array
	converts when every element does; an empty array is any array.
	*/
	init?(_ stored: PropertyListValue, as type: ConfigType) {
		switch type {
		case .string:
			guard let value = stored.string else { return nil }
			self = .string(value)
		case .int:
			guard let value = stored.int else { return nil }
			self = .int(value)
		case .double:
			guard let value = stored.double else { return nil }
			self = .double(value)
		case .bool:
			guard let value = stored.bool else { return nil }
			self = .bool(value)
		case .bytes:
			guard let value = stored.bytes else { return nil }
			self = .bytes(value)
		case .stringArray:
			guard let value = stored.elements(\.string) else { return nil }
			self = .stringArray(value)
		case .intArray:
			guard let value = stored.elements(\.int) else { return nil }
			self = .intArray(value)
		case .doubleArray:
			guard let value = stored.elements(\.double) else { return nil }
			self = .doubleArray(value)
		case .boolArray:
			guard let value = stored.elements(\.bool) else { return nil }
			self = .boolArray(value)
		case .byteChunkArray:
			guard let value = stored.elements(\.bytes) else { return nil }
			self = .byteChunkArray(value)
		}
	}
}

extension PropertyListValue {
	var string: String? {
		guard case .string(let value) = self else { return nil }
		return value
	}

	var int: Int? {
		switch self {
		case .integer(let value):
			value
		case .double(let value):
			Int(exactly: value)
		case .float(let value):
			Int(exactly: value)
		default:
			nil
		}
	}

	var double: Double? {
		switch self {
		case .double(let value):
			value
		// Through its shortest decimal form: a float written as 0.1 reads as 0.1, not 0.10000000149011612.
		case .float(let value):
			Double(value.description) ?? Double(value)
		case .integer(let value):
			Double(value)
		case .unsignedInteger(let value):
			Double(value)
		default:
			nil
		}
	}

	var bool: Bool? {
		guard case .bool(let value) = self else { return nil }
		return value
	}

	var bytes: [UInt8]? {
		guard case .data(let value) = self else { return nil }
		return Array(value)
	}

	/// Every element converted by `convert`, or `nil` if this is not an array or an element does not convert.
	func elements<Element>(_ convert: (PropertyListValue) -> Element?) -> [Element]? {
		guard case .array(let values) = self else { return nil }
		var elements: [Element] = []
		elements.reserveCapacity(values.count)
		for value in values {
			guard let element = convert(value) else { return nil }
			elements.append(element)
		}

		return elements
	}
}
#endif
