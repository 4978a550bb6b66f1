import Foundation

// The types `UserDefaults` stores as they are. Their `bridge` (JSON, from the
// `Codable` default) is only used when one is nested in a type that asks for it;
// reads and writes go through `PlistPrimitive` below.

/// Stored as itself: `UserDefaults` keeps a `Bool` as a property-list value.
extension Bool: Defaults.Serializable {
	public static let isNativelySupportedType = true
}

/// Stored as itself: `UserDefaults` keeps a `String` as a property-list value.
extension String: Defaults.Serializable {
	public static let isNativelySupportedType = true
}

/// Stored as itself: `UserDefaults` keeps a `Data` as a property-list value.
extension Data: Defaults.Serializable {
	public static let isNativelySupportedType = true
}

/// Stored as itself: `UserDefaults` keeps a `Date` as a property-list value.
extension Date: Defaults.Serializable {
	public static let isNativelySupportedType = true
}

/// Stored as itself: `UserDefaults` keeps a `Double` as a property-list value.
extension Double: Defaults.Serializable {
	public static let isNativelySupportedType = true
}

/// Stored as itself: `UserDefaults` keeps a `Float` as a property-list value.
extension Float: Defaults.Serializable {
	public static let isNativelySupportedType = true
}

/// Stored as a `Double`: Foundation on Linux traps when asked to store a `CGFloat`.
extension CGFloat: Defaults.Serializable {
	public static let isNativelySupportedType = true
}

/// Stored as itself: `UserDefaults` keeps a `Int` as a property-list value.
extension Int: Defaults.Serializable {
	public static let isNativelySupportedType = true
}

/// Stored as itself: `UserDefaults` keeps a `Int8` as a property-list value.
extension Int8: Defaults.Serializable {
	public static let isNativelySupportedType = true
}

/// Stored as itself: `UserDefaults` keeps a `Int16` as a property-list value.
extension Int16: Defaults.Serializable {
	public static let isNativelySupportedType = true
}

/// Stored as itself: `UserDefaults` keeps a `Int32` as a property-list value.
extension Int32: Defaults.Serializable {
	public static let isNativelySupportedType = true
}

/// Stored as itself: `UserDefaults` keeps a `Int64` as a property-list value.
extension Int64: Defaults.Serializable {
	public static let isNativelySupportedType = true
}

/// Stored as itself: `UserDefaults` keeps a `UInt` as a property-list value.
extension UInt: Defaults.Serializable {
	public static let isNativelySupportedType = true
}

/// Stored as itself: `UserDefaults` keeps a `UInt8` as a property-list value.
extension UInt8: Defaults.Serializable {
	public static let isNativelySupportedType = true
}

/// Stored as itself: `UserDefaults` keeps a `UInt16` as a property-list value.
extension UInt16: Defaults.Serializable {
	public static let isNativelySupportedType = true
}

/// Stored as itself: `UserDefaults` keeps a `UInt32` as a property-list value.
extension UInt32: Defaults.Serializable {
	public static let isNativelySupportedType = true
}

/// Stored as itself: `UserDefaults` keeps a `UInt64` as a property-list value.
extension UInt64: Defaults.Serializable {
	public static let isNativelySupportedType = true
}
