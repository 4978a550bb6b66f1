import Foundation

extension Defaults.AnySerializable: ExpressibleByStringLiteral {
	/// `let value: Defaults.AnySerializable = "🦄"`
	public init(stringLiteral value: String) {
		self.init(storage: .string(value))
	}
}

extension Defaults.AnySerializable: ExpressibleByIntegerLiteral {
	/// `let value: Defaults.AnySerializable = 42`
	public init(integerLiteral value: Int) {
		self.init(storage: .integer(value))
	}
}

extension Defaults.AnySerializable: ExpressibleByFloatLiteral {
	/// `let value: Defaults.AnySerializable = 0.5`
	public init(floatLiteral value: Double) {
		self.init(storage: .double(value))
	}
}

extension Defaults.AnySerializable: ExpressibleByBooleanLiteral {
	/// `let value: Defaults.AnySerializable = true`
	public init(booleanLiteral value: Bool) {
		self.init(storage: .bool(value))
	}
}

extension Defaults.AnySerializable: ExpressibleByNilLiteral {
	/// `let value: Defaults.AnySerializable = nil` stores nothing: writing it removes the key.
	public init(nilLiteral: ()) {
		self.init(storage: nil)
	}
}

extension Defaults.AnySerializable: ExpressibleByArrayLiteral {
	/// `let value: Defaults.AnySerializable = [1, "two", 3.0]`
	public init(arrayLiteral elements: Any...) {
		self.init(literal: elements)
	}
}

extension Defaults.AnySerializable: ExpressibleByDictionaryLiteral {
	/// `let value: Defaults.AnySerializable = ["name": "Unicorn", "age": 3]`; keys are stored as strings.
	public init(dictionaryLiteral elements: (AnyHashable, Any)...) {
		var dictionary: [String: Any] = [:]
		for (key, value) in elements {
			dictionary[key.base as? String ?? String(describing: key.base)] = value
		}

		self.init(literal: dictionary)
	}
}
