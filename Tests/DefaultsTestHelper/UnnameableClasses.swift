import Defaults
import Foundation

// Classes `NSStringFromClass` cannot name on Linux: archiving any of them (or an
// object holding one) traps inside Foundation unless the library refuses first.

private final class PrivateSetting: NSObject, NSSecureCoding, Defaults.Serializable {
	static var supportsSecureCoding: Bool { true }
	override init() {}
	init?(coder: NSCoder) {}
	func encode(with coder: NSCoder) {}
}

enum SettingNamespace {
	final class Nested: NSObject, NSSecureCoding, Defaults.Serializable {
		static var supportsSecureCoding: Bool { true }
		override init() {}
		init?(coder: NSCoder) {}
		func encode(with coder: NSCoder) {}
	}
}

final class GenericSetting<Element>: NSObject, NSSecureCoding, Defaults.Serializable {
	static var supportsSecureCoding: Bool { true }
	override init() {}
	init?(coder: NSCoder) {}
	func encode(with coder: NSCoder) {}
}

/// Top level itself, but holding an object of a private class.
final class SettingHoldingPrivate: NSObject, NSSecureCoding, Defaults.Serializable {
	static var supportsSecureCoding: Bool { true }
	private let inner = PrivateSetting()
	override init() {}
	init?(coder: NSCoder) {}
	func encode(with coder: NSCoder) {
		coder.encode(inner, forKey: "inner")
	}
}

/// Top level and nameable: the control, which must be stored.
final class NameableSetting: NSObject, NSSecureCoding, Defaults.Serializable {
	static var supportsSecureCoding: Bool { true }
	override init() {}
	init?(coder: NSCoder) {}
	func encode(with coder: NSCoder) {}
}

enum UnnameableClasses {
	/// Writes one value of each class under its own key; returns whether anything was stored.
	static let writers: [(String, @Sendable (UserDefaults, String) -> Bool)] = [
		("private", { write(PrivateSetting(), in: $0, name: $1) }),
		("nested", { write(SettingNamespace.Nested(), in: $0, name: $1) }),
		("generic", { write(GenericSetting<Int>(), in: $0, name: $1) }),
		("holding-private", { write(SettingHoldingPrivate(), in: $0, name: $1) }),
		("nameable", { write(NameableSetting(), in: $0, name: $1) }),
	]

	private static func write<Value: Defaults.Serializable>(_ value: Value, in suite: UserDefaults, name: String) -> Bool {
		suite[Defaults.Key<Value?>(name, suite: suite)] = value
		return Suite.of(suite).ownValue(forKey: name) != nil
	}
}
