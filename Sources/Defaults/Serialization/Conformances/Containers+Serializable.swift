import Foundation

/// `nil` removes the stored value; anything else is stored as the wrapped type.
extension Optional: Defaults.Serializable where Wrapped: Defaults.Serializable {
	public static var isNativelySupportedType: Bool { Wrapped.isNativelySupportedType }
	public static var bridge: Defaults.OptionalBridge<Wrapped> { Defaults.OptionalBridge() }
}

/// Stored as a property-list array of the elements' stored forms.
extension Array: Defaults.Serializable where Element: Defaults.Serializable {
	public static var isNativelySupportedType: Bool { Element.isNativelySupportedType }
	public static var bridge: Defaults.ArrayBridge<Element> { Defaults.ArrayBridge() }
}

/// Stored as a property-list array, in no particular order.
extension Set: Defaults.Serializable where Element: Defaults.Serializable {
	public static var bridge: Defaults.SetBridge<Element> { Defaults.SetBridge() }
}

/// Stored as a `[String: …]` dictionary; keys are written with `String(key)` and read with `Key(string)`.
extension Dictionary: Defaults.Serializable where Key: LosslessStringConvertible & Hashable, Value: Defaults.Serializable {
	public static var isNativelySupportedType: Bool { Key.self == String.self && Value.isNativelySupportedType }
	public static var bridge: Defaults.DictionaryBridge<Key, Value> { Defaults.DictionaryBridge() }
}

/// Stored as `[lowerBound, upperBound]`.
extension Range: Defaults.Serializable, Defaults.Range where Bound: Defaults.Serializable {
	public static var bridge: Defaults.RangeBridge<Range> { Defaults.RangeBridge() }
}

/// Stored as `[lowerBound, upperBound]`.
extension ClosedRange: Defaults.Serializable, Defaults.Range where Bound: Defaults.Serializable {
	public static var bridge: Defaults.RangeBridge<ClosedRange> { Defaults.RangeBridge() }
}

/// Stored as its `uuidString`.
extension UUID: Defaults.Serializable {
	public static let bridge = Defaults.UUIDBridge()
}

/// Stored as a JSON string of its `absoluteString`, such as `"https:\/\/example.com"`.
extension URL: Defaults.Serializable {
	public static let bridge = Defaults.URLBridge()
}
