import Foundation

/**
Reads numbers and booleans back in whatever shape Foundation returns them.

Linux Foundation returns `Int` for `Int8`/`Int16`/`Int32`, `Int64` for large
values, `Double` for a `Float` after a reload, and does not cast `Bool` and
`Int` into each other. Values typed by hand as launch arguments arrive as
strings. Every conversion here is exact: a value that does not fit the
requested type is rejected, never truncated.
*/
enum NumericCoercion {
	static func integer<Integer: FixedWidthInteger>(_ object: Any, as _: Integer.Type = Integer.self) -> Integer? {
		switch object {
		case let value as Int:
			return Integer(exactly: value)
		case let value as Int64:
			return Integer(exactly: value)
		case let value as UInt64:
			return Integer(exactly: value)
		case let value as Bool:
			return value ? 1 : 0
		case let value as any FixedWidthInteger:
			return Integer(exactly: value)
		case let value as Double:
			return value.isFinite ? Integer(exactly: value) : nil
		case let value as Float:
			return value.isFinite ? Integer(exactly: value) : nil
		case let value as String:
			return Integer(value.trimmingCharacters(in: .whitespaces))
		case let value as NSNumber:
			return integer(fromNumber: value)
		default:
			return nil
		}
	}

	static func double(_ object: Any) -> Double? {
		switch object {
		case let value as Double:
			return value
		case let value as Float:
			return Double(value)
		case let value as Bool:
			return value ? 1 : 0
		case let value as any BinaryInteger:
			return Double(exactly: value)
		case let value as String:
			return Double(value.trimmingCharacters(in: .whitespaces))
		case let value as NSNumber:
			return value.doubleValue
		default:
			return nil
		}
	}

	/// A `Float` stored on Linux comes back as the `Double` holding the same value, so narrowing restores it exactly.
	static func float(_ object: Any) -> Float? {
		if let value = object as? Float {
			return value
		}

		return double(object).map { Float($0) }
	}

	static func bool(_ object: Any) -> Bool? {
		switch object {
		case let value as Bool:
			return value
		case let value as String:
			switch value.trimmingCharacters(in: .whitespaces).lowercased() {
			case "yes", "true", "1":
				return true
			case "no", "false", "0":
				return false
			default:
				return nil
			}
		default:
			switch integer(object, as: Int.self) {
			case 0:
				return false
			case 1:
				return true
			default:
				return nil
			}
		}
	}

	private static func integer<Integer: FixedWidthInteger>(fromNumber number: NSNumber) -> Integer? {
		let double = number.doubleValue
		if double < 0 {
			return Integer(exactly: number.int64Value)
		}

		if double > Double(Int64.max) {
			return Integer(exactly: number.uint64Value)
		}

		guard Double(number.int64Value) == double else {
			return nil
		}

		return Integer(exactly: number.int64Value)
	}
}
