import Foundation

/**
A stored property-list value as a `Sendable`, `Hashable` tree.

``Defaults/AnySerializable`` keeps its value in this form, which gives it value
semantics and equality without holding an `Any`.
*/
package enum PropertyListValue: Hashable, Sendable {
	case bool(Bool)
	case integer(Int)
	case unsignedInteger(UInt64)
	case float(Float)
	case double(Double)
	case string(String)
	case data(Data)
	case date(Date)
	indirect case array([PropertyListValue])
	indirect case dictionary([String: PropertyListValue])

	/// Reads an object as stored by Foundation (or produced by a codec); `nil` if it is not a property list.
	package init?(_ object: Any) {
		// The common scalars by their exact type first: each failed cast below from `Any` can cost a bridging attempt.
		let type = type(of: object)
		if type == Int.self, let value = object as? Int {
			self = .integer(value)
			return
		} else if type == String.self, let value = object as? String {
			self = .string(value)
			return
		} else if type == Bool.self, let value = object as? Bool {
			self = .bool(value)
			return
		} else if type == Double.self, let value = object as? Double {
			self = .double(value)
			return
		}

		if let number = Self.foundationNumber(object) {
			self.init(number: number)
			return
		}

		switch object {
		case let value as String:
			self = .string(value)
		case let value as Bool:
			self = .bool(value)
		case let value as Int:
			self = .integer(value)
		case let value as UInt64:
			self = Int(exactly: value).map(Self.integer) ?? .unsignedInteger(value)
		case let value as any FixedWidthInteger:
			guard let int = Int(exactly: value) else {
				return nil
			}

			self = .integer(int)
		case let value as Double:
			self = .double(value)
		case let value as Float:
			self = .float(value)
		case let value as Data:
			self = .data(value)
		case let value as Date:
			self = .date(value)
		default:
			if let array = StoredContainer.array(object) {
				var elements: [PropertyListValue] = []
				for element in array {
					guard let value = PropertyListValue(element) else {
						return nil
					}

					elements.append(value)
				}

				self = .array(elements)
			} else if let dictionary = StoredContainer.dictionary(object) {
				var entries: [String: PropertyListValue] = [:]
				for (key, element) in dictionary {
					guard let value = PropertyListValue(element) else {
						return nil
					}

					entries[key] = value
				}

				self = .dictionary(entries)
			} else {
				return nil
			}
		}
	}

	/**
	An `NSNumber` as Foundation's property-list parser returns it. It casts to
	`Bool` whenever its value is 0 or 1, so its kind is read from its type
	encoding instead (parsed booleans arrive as Swift `Bool`s).
	*/
	package init(number: NSNumber) {
		switch String(cString: number.objCType) {
		case "f":
			self = .float(number.floatValue)
		case "d":
			self = .double(number.doubleValue)
		case "Q", "L":
			self = Int(exactly: number.uint64Value).map(Self.integer) ?? .unsignedInteger(number.uint64Value)
		default:
			self = .integer(number.intValue)
		}
	}

	/// The object when it is a Foundation number (not a Swift number that would bridge to one).
	static func foundationNumber(_ object: Any) -> NSNumber? {
		guard type(of: object) is NSNumber.Type else {
			return nil
		}

		return object as? NSNumber
	}

	/// The object to hand to Foundation.
	package var object: Any {
		switch self {
		case .bool(let value):
			value
		case .integer(let value):
			value
		case .unsignedInteger(let value):
			value
		case .float(let value):
			value
		case .double(let value):
			value
		case .string(let value):
			value
		case .data(let value):
			value
		case .date(let value):
			value
		case .array(let values):
			values.map(\.object)
		case .dictionary(let entries):
			entries.mapValues(\.object)
		}
	}
}

extension PropertyListValue {
	/**
	Stored values compare as stored: a NaN equals a NaN (a real's, a float's or
	a date's). With IEEE equality a stored NaN would differ from itself, so a
	file holding one would count as changed at every look (rewritten, its key
	reported to observers, and a migration that read it never able to commit).
	*/
	package static func == (lhs: PropertyListValue, rhs: PropertyListValue) -> Bool {
		switch (lhs, rhs) {
		case (.bool(let lhs), .bool(let rhs)):
			lhs == rhs
		case (.integer(let lhs), .integer(let rhs)):
			lhs == rhs
		case (.unsignedInteger(let lhs), .unsignedInteger(let rhs)):
			lhs == rhs
		case (.float(let lhs), .float(let rhs)):
			lhs == rhs || (lhs.isNaN && rhs.isNaN)
		case (.double(let lhs), .double(let rhs)):
			lhs == rhs || (lhs.isNaN && rhs.isNaN)
		case (.string(let lhs), .string(let rhs)):
			lhs == rhs
		case (.data(let lhs), .data(let rhs)):
			lhs == rhs
		case (.date(let lhs), .date(let rhs)):
			// A date is a real number of seconds, and a binary property list holds any: a NaN one too.
			lhs == rhs || (lhs.timeIntervalSinceReferenceDate.isNaN && rhs.timeIntervalSinceReferenceDate.isNaN)
		case (.array(let lhs), .array(let rhs)):
			lhs == rhs
		case (.dictionary(let lhs), .dictionary(let rhs)):
			lhs == rhs
		default:
			false
		}
	}

	package func hash(into hasher: inout Hasher) {
		switch self {
		case .bool(let value):
			hasher.combine(0)
			hasher.combine(value)
		case .integer(let value):
			hasher.combine(1)
			hasher.combine(value)
		case .unsignedInteger(let value):
			hasher.combine(2)
			hasher.combine(value)
		case .float(let value):
			hasher.combine(3)
			hasher.combine(value.isNaN ? .nan : value)
		case .double(let value):
			hasher.combine(4)
			hasher.combine(value.isNaN ? .nan : value)
		case .string(let value):
			hasher.combine(5)
			hasher.combine(value)
		case .data(let value):
			hasher.combine(6)
			hasher.combine(value)
		case .date(let value):
			hasher.combine(7)
			let seconds = value.timeIntervalSinceReferenceDate
			hasher.combine(seconds.isNaN ? .nan : seconds)
		case .array(let values):
			hasher.combine(8)
			hasher.combine(values)
		case .dictionary(let entries):
			hasher.combine(9)
			hasher.combine(entries)
		}
	}
}
