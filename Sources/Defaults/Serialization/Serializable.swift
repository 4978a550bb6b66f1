import Foundation

/**
A type that can be stored in `UserDefaults` through `Defaults`.

Most types get their conformance for free: declare `Defaults.Serializable` on a
`Codable` type, a `RawRepresentable` enum, or an `NSSecureCoding` class and the
right bridge is picked for you. For anything else, provide a ``Defaults/Bridge``.

```swift
struct User: Codable, Defaults.Serializable {
	let name: String
}

extension Defaults.Keys {
	static let user = Key<User>("user", default: User(name: "Hello"))
}
```
*/
public protocol _DefaultsSerializable {
	/// The type the bridge produces when reading. Normally `Self`.
	typealias Value = Bridge.Value

	/// The type the bridge hands to storage.
	typealias Serializable = Bridge.Serializable

	/// The bridge that converts between this type and something `UserDefaults` stores.
	associatedtype Bridge: Defaults.Bridge

	/**
	The bridge used to store values of this type.

	```swift
	extension User: Defaults.Serializable {
		static let bridge = UserBridge()
	}
	```
	*/
	static var bridge: Bridge { get }

	/**
	Whether `UserDefaults` stores this type as it is, without a bridge.

	`true` for `Bool`, the integer and floating-point types, `String`, `Data`
	and `Date`, and for arrays and string-keyed dictionaries of them. Defaults to `false`.
	*/
	static var isNativelySupportedType: Bool { get }
}

/**
Converts between a value and the object stored in `UserDefaults`.

Implement a bridge to store a type the library does not know. `serialize`
runs before a value is written, `deserialize` after it is read; return `nil`
when the input cannot be converted (reading then falls back to the key's
default, and writing leaves the stored value untouched, each with a diagnostic).

Requirements for a conforming bridge:
- `deserialize(serialize(x)) == x` for every value `x`.
- `Serializable` is a property-list type (`String`, numbers, `Bool`, `Data`,
  `Date`, arrays and `[String: …]` dictionaries of them) or itself
  `Defaults.Serializable`, in which case its own bridge is applied next.
- Both functions are pure: no I/O, no shared state.

``Defaults/bridgeViolations(of:roundTripping:)`` checks all three for your values; run it in
your tests.

```swift
struct UserBridge: Defaults.Bridge {
	typealias Value = User
	typealias Serializable = [String: String]

	func serialize(_ value: User?) -> [String: String]? {
		value.map { ["name": $0.name, "age": $0.age] }
	}

	func deserialize(_ object: [String: String]?) -> User? {
		guard let name = object?["name"], let age = object?["age"] else {
			return nil
		}

		return User(name: name, age: age)
	}
}
```
*/
public protocol _DefaultsBridge {
	/// The type you work with.
	associatedtype Value

	/// The type stored in `UserDefaults`.
	associatedtype Serializable

	/// Converts a value before it is stored. `nil` means it cannot be stored.
	func serialize(_ value: Value?) -> Serializable?

	/// Converts a stored object back. `nil` means it does not decode.
	func deserialize(_ object: Serializable?) -> Value?
}

/**
A bridge that stores a `Codable` value as a JSON string.

Conforming needs no code: `serialize` and `deserialize` have default
implementations that use `JSONEncoder` (with sorted keys) and `JSONDecoder`.

```swift
struct SettingsBridge: Defaults.CodableBridge {
	typealias Value = Settings
}
```
*/
public protocol _DefaultsCodableBridge: Defaults.Bridge where Serializable == String, Value: Codable {}

/**
Makes a `Codable & RawRepresentable` type store its raw value rather than JSON.

```swift
enum Mime: String, Codable, Defaults.Serializable, Defaults.PreferRawRepresentable {
	case json = "application/json"
}
// Stored as `application/json`, not `"application/json"`.
```
*/
public protocol _DefaultsPreferRawRepresentable: RawRepresentable {}

/**
Makes a `Codable & NSSecureCoding` class store a keyed archive rather than JSON.

```swift
final class Shape: NSObject, NSSecureCoding, Codable, Defaults.Serializable, Defaults.PreferNSSecureCoding {
	// …
}
```
*/
public protocol _DefaultsPreferNSSecureCoding: NSObject, NSSecureCoding {}

/**
A custom `Collection` that is stored as a property-list array.

```swift
struct Bag<Element: Defaults.Serializable>: Collection, Defaults.CollectionSerializable {
	var items: [Element]
	init(_ elements: [Element]) { items = elements }
	// … Collection requirements …
}
```
*/
public protocol _DefaultsCollectionSerializable: Collection, Defaults.Serializable {
	/// Creates the collection from the elements read back from storage.
	init(_ elements: [Element])
}

/**
A custom `SetAlgebra` that is stored as a property-list array.

```swift
extension SetBag: Defaults.SetAlgebraSerializable {
	func toArray() -> [Element] { Array(store) }
}
```
*/
public protocol _DefaultsSetAlgebraSerializable: SetAlgebra, Defaults.Serializable {
	/// The elements to store, in any order.
	func toArray() -> [Element]
}

/**
A range-like type stored as the two-element array `[lowerBound, upperBound]`.

`Range` and `ClosedRange` conform already; adopt it for your own bounded types.

```swift
extension Defaults.Keys {
	static let span = Key<ClosedRange<Int>>("span", default: 1...10)
}
```
*/
public protocol _DefaultsRange {
	/// The bound type, stored through its own bridge.
	associatedtype Bound: Comparable, Defaults.Serializable

	/// The lower bound.
	var lowerBound: Bound { get }

	/// The upper bound.
	var upperBound: Bound { get }

	/// Creates the range without checking `lower <= upper`.
	init(uncheckedBounds: (lower: Bound, upper: Bound))
}

extension Defaults {
	/// A type that can be stored through `Defaults`. See ``_DefaultsSerializable``.
	public typealias Serializable = _DefaultsSerializable

	/// Converts between a value and its stored form. See ``_DefaultsBridge``.
	public typealias Bridge = _DefaultsBridge

	/// A bridge that stores `Codable` values as JSON. See ``_DefaultsCodableBridge``.
	public typealias CodableBridge = _DefaultsCodableBridge

	/// Prefer the raw value over JSON. See ``_DefaultsPreferRawRepresentable``.
	public typealias PreferRawRepresentable = _DefaultsPreferRawRepresentable

	/// Prefer a keyed archive over JSON. See ``_DefaultsPreferNSSecureCoding``.
	public typealias PreferNSSecureCoding = _DefaultsPreferNSSecureCoding

	/// A custom collection stored as an array. See ``_DefaultsCollectionSerializable``.
	public typealias CollectionSerializable = _DefaultsCollectionSerializable

	/// A custom set stored as an array. See ``_DefaultsSetAlgebraSerializable``.
	public typealias SetAlgebraSerializable = _DefaultsSetAlgebraSerializable

	/// A range-like type. See ``_DefaultsRange``.
	public typealias Range = _DefaultsRange

	/// A range-like type that can be stored. See ``_DefaultsRange``.
	public typealias RangeSerializable = _DefaultsRange & _DefaultsSerializable
}

extension Defaults.Serializable {
	public static var isNativelySupportedType: Bool { false }
}
