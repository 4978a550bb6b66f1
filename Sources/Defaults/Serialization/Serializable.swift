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
public protocol _DefaultsSerializable<Bridge> {
	/// The type the bridge produces when reading. Normally `Self`.
	typealias Value = Bridge.Value

	/// The type the bridge hands to storage.
	typealias Serializable = Bridge.Serializable

	/// The bridge that converts between this type and something `UserDefaults` stores.
	associatedtype Bridge: Defaults.Bridge

	/**
	The bridge used to store values of this type.

	```swift
	struct User {
		var name: String
	}

	struct UserBridge: Defaults.Bridge {
		func serialize(_ value: User?) -> String? { value?.name }
		func deserialize(_ object: String?) -> User? { object.map { User(name: $0) } }
	}

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
struct User: Equatable {
	let name: String
	let age: Int
}

struct UserBridge: Defaults.Bridge {
	typealias Value = User
	typealias Serializable = [String: String]

	func serialize(_ value: User?) -> [String: String]? {
		value.map { ["name": $0.name, "age": String($0.age)] }
	}

	func deserialize(_ object: [String: String]?) -> User? {
		guard let name = object?["name"], let age = object?["age"].flatMap(Int.init) else {
			return nil
		}

		return User(name: name, age: age)
	}
}

extension User: Defaults.Serializable {
	static let bridge = UserBridge()
}
```
*/
public protocol _DefaultsBridge<Value, Serializable> {
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
	static var supportsSecureCoding: Bool { true }
	let sides: Int

	init(sides: Int) {
		self.sides = sides
	}

	init?(coder: NSCoder) {
		sides = coder.decodeInteger(forKey: "sides")
	}

	func encode(with coder: NSCoder) {
		coder.encode(sides, forKey: "sides")
	}
}
// Stored as a keyed archive, not as JSON.
```
*/
public protocol _DefaultsPreferNSSecureCoding: NSObject, NSSecureCoding {}

/**
A custom `Collection` that is stored as a property-list array.

```swift
struct Bag<Element: Defaults.Serializable>: Collection, Defaults.CollectionSerializable {
	var items: [Element]

	init(_ elements: [Element]) {
		items = elements
	}

	var startIndex: Int { items.startIndex }
	var endIndex: Int { items.endIndex }
	subscript(position: Int) -> Element { items[position] }
	func index(after index: Int) -> Int { items.index(after: index) }
}
```
*/
public protocol _DefaultsCollectionSerializable<Element>: Collection, Defaults.Serializable {
	/// Named here to be the primary associated type: `some Defaults.CollectionSerializable<Int>`.
	associatedtype Element

	/// Creates the collection from the elements read back from storage.
	init(_ elements: [Element])
}

/**
A custom `SetAlgebra` that is stored as a property-list array.

```swift
// Tags: a SetAlgebra of strings, kept in `storage`.
extension Tags: Defaults.SetAlgebraSerializable {
	func toArray() -> [String] { Array(storage) }
}
```
*/
public protocol _DefaultsSetAlgebraSerializable<Element>: SetAlgebra, Defaults.Serializable {
	/// Named here to be the primary associated type: `some Defaults.SetAlgebraSerializable<String>`.
	associatedtype Element

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
public protocol _DefaultsRange<Bound> {
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
	/**
	A type that can be stored through `Defaults`.

	Declare it on a `Codable` type, a `RawRepresentable` enum or an
	`NSObject & NSSecureCoding` class and the right bridge is chosen for you;
	for any other type, give it a `static let bridge` (a ``Defaults/Bridge``).
	Its primary associated type is the bridge, so `some Defaults.Serializable<CelsiusBridge>`
	names a type stored through that bridge.

	```swift
	struct Point: Codable, Defaults.Serializable {
		var x = 0, y = 0
	}

	extension Defaults.Keys {
		static let origin = Key<Point>("origin", default: Point())
	}
	```
	*/
	public typealias Serializable = _DefaultsSerializable

	/**
	Converts between a value and the object stored in `UserDefaults`.

	`serialize` runs before a write and `deserialize` after a read; either returns
	`nil` for a value it cannot convert (the write is skipped, the read falls back
	to the key's default, each with a diagnostic). A bridge must round-trip every
	value, produce a property-list type (or another `Defaults.Serializable`), and
	be pure. Check yours with ``Defaults/bridgeViolations(of:roundTripping:)``.
	Its primary associated types are `Value` and `Serializable`, in that order:
	`some Defaults.Bridge<Celsius, Double>`.

	```swift
	struct Celsius { var degrees: Double }

	struct CelsiusBridge: Defaults.Bridge {
		func serialize(_ value: Celsius?) -> Double? { value?.degrees }
		func deserialize(_ object: Double?) -> Celsius? { object.map(Celsius.init) }
	}

	extension Celsius: Defaults.Serializable {
		static let bridge = CelsiusBridge()
	}
	```
	*/
	public typealias Bridge = _DefaultsBridge

	/**
	A bridge that stores a `Codable` value as a JSON string with sorted keys.

	`serialize` and `deserialize` have default implementations; name the value type only.

	```swift
	struct Settings: Codable { var volume = 5 }

	struct SettingsBridge: Defaults.CodableBridge {
		typealias Value = Settings
	}
	```
	*/
	public typealias CodableBridge = _DefaultsCodableBridge

	/**
	Makes a `Codable & RawRepresentable` type store its raw value instead of JSON.

	```swift
	enum Mime: String, Codable, Defaults.Serializable, Defaults.PreferRawRepresentable {
		case json = "application/json"   // stored as application/json, without quotes
	}
	```
	*/
	public typealias PreferRawRepresentable = _DefaultsPreferRawRepresentable

	/**
	Makes a `Codable & NSSecureCoding` class store a keyed archive instead of JSON.

	```swift
	final class Shape: NSObject, NSSecureCoding, Codable, Defaults.Serializable, Defaults.PreferNSSecureCoding {
		static let supportsSecureCoding = true
		func encode(with coder: NSCoder) {}
		init?(coder: NSCoder) {}
	}
	```
	*/
	public typealias PreferNSSecureCoding = _DefaultsPreferNSSecureCoding

	/**
	A custom collection stored as a property-list array of its elements.

	Adopt it with `init(_ elements: [Element])`; reading builds the collection from the stored elements.
	Its primary associated type is `Element` (`some Defaults.CollectionSerializable<String>`).

	```swift
	struct Playlist: Defaults.CollectionSerializable {
		var songs: [String]
		init(_ elements: [String]) { songs = elements }

		var startIndex: Int { songs.startIndex }
		var endIndex: Int { songs.endIndex }
		subscript(index: Int) -> String { songs[index] }
		func index(after index: Int) -> Int { songs.index(after: index) }
	}
	```
	*/
	public typealias CollectionSerializable = _DefaultsCollectionSerializable

	/**
	A custom set stored as a property-list array of its elements.

	Adopt it with `toArray()`, which gives the elements to store in any order.
	Its primary associated type is `Element` (`some Defaults.SetAlgebraSerializable<String>`).

	```swift
	extension Tags: Defaults.SetAlgebraSerializable {
		func toArray() -> [String] { Array(storage) }
	}
	```
	*/
	public typealias SetAlgebraSerializable = _DefaultsSetAlgebraSerializable

	/**
	A range-like type, stored as the two-element array `[lowerBound, upperBound]`.

	`Range` and `ClosedRange` conform already. Its primary associated type is
	`Bound` (`some Defaults.Range<Int>`).

	```swift
	extension Defaults.Keys {
		static let pages = Key<ClosedRange<Int>>("pages", default: 1...10)
	}
	```
	*/
	public typealias Range = _DefaultsRange

	/// A range-like type (``Defaults/Range``) whose bounds can be stored.
	public typealias RangeSerializable = _DefaultsRange & _DefaultsSerializable
}

extension Defaults.Serializable {
	public static var isNativelySupportedType: Bool { false }
}
