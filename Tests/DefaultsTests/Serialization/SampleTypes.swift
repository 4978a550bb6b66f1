import Foundation
@testable import Defaults

struct SampleTime: Codable, Hashable, Defaults.Serializable {
	var hour: Int
	var minute: Int
}

enum SampleCodableEnum: String, Codable, Defaults.Serializable {
	case tenMinutes = "10 Minutes"
	case oneHour = "1 Hour"
}

enum SampleRawEnum: String, Defaults.Serializable {
	case light
	case dark
}

enum SampleIntEnum: Int, Defaults.Serializable {
	case one = 1
	case two = 2
}

enum SamplePreferRawEnum: String, Codable, Defaults.Serializable, Defaults.PreferRawRepresentable {
	case json = "application/json"
}

enum SampleIndirectCodable: Codable, Hashable, Defaults.Serializable {
	case leaf(String)
	case pair(Int, Int)
}

final class SampleShape: NSObject, NSSecureCoding, Defaults.Serializable {
	static var supportsSecureCoding: Bool { true }

	let sides: Int
	let label: String

	init(sides: Int, label: String) {
		self.sides = sides
		self.label = label
	}

	init?(coder: NSCoder) {
		sides = coder.decodeInteger(forKey: "sides")
		label = coder.decodeObject(of: NSString.self, forKey: "label") as String? ?? ""
	}

	func encode(with coder: NSCoder) {
		coder.encode(sides, forKey: "sides")
		coder.encode(label as NSString, forKey: "label")
	}

	override func isEqual(_ object: Any?) -> Bool {
		guard let other = object as? SampleShape else {
			return false
		}

		return sides == other.sides && label == other.label
	}

	override var hash: Int {
		sides.hashValue ^ label.hashValue
	}
}

final class SampleOtherArchivable: NSObject, NSSecureCoding, Defaults.Serializable {
	static var supportsSecureCoding: Bool { true }

	override init() {}

	init?(coder: NSCoder) {}

	func encode(with coder: NSCoder) {
		coder.encode(1, forKey: "one")
	}
}

/// Codable and NSSecureCoding: Codable wins unless the type prefers NSSecureCoding.
final class SampleCodableArchivable: NSObject, NSSecureCoding, Codable, Defaults.Serializable {
	static var supportsSecureCoding: Bool { true }

	let value: Int

	init(value: Int) {
		self.value = value
	}

	init?(coder: NSCoder) {
		value = coder.decodeInteger(forKey: "value")
	}

	func encode(with coder: NSCoder) {
		coder.encode(value, forKey: "value")
	}

	override func isEqual(_ object: Any?) -> Bool {
		(object as? Self)?.value == value
	}

	override var hash: Int { value }
}

final class SamplePreferArchive: NSObject, NSSecureCoding, Codable, Defaults.Serializable, Defaults.PreferNSSecureCoding {
	static var supportsSecureCoding: Bool { true }

	let value: Int

	init(value: Int) {
		self.value = value
	}

	init?(coder: NSCoder) {
		value = coder.decodeInteger(forKey: "value")
	}

	func encode(with coder: NSCoder) {
		coder.encode(value, forKey: "value")
	}

	override func isEqual(_ object: Any?) -> Bool {
		(object as? Self)?.value == value
	}

	override var hash: Int { value }
}

struct SampleBag<Element: Defaults.Serializable & Equatable>: Collection, Equatable, Defaults.CollectionSerializable {
	var items: [Element]

	init(_ elements: [Element]) {
		items = elements
	}

	var startIndex: Int { items.startIndex }
	var endIndex: Int { items.endIndex }

	func index(after index: Int) -> Int {
		items.index(after: index)
	}

	subscript(position: Int) -> Element {
		items[position]
	}
}

struct SampleSetBag<Element: Defaults.Serializable & Hashable>: SetAlgebra, Defaults.SetAlgebraSerializable {
	var store = Set<Element>()

	init() {}

	init(_ store: Set<Element>) {
		self.store = store
	}

	func contains(_ member: Element) -> Bool { store.contains(member) }
	func union(_ other: Self) -> Self { Self(store.union(other.store)) }
	func intersection(_ other: Self) -> Self { Self(store.intersection(other.store)) }
	func symmetricDifference(_ other: Self) -> Self { Self(store.symmetricDifference(other.store)) }

	@discardableResult
	mutating func insert(_ newMember: Element) -> (inserted: Bool, memberAfterInsert: Element) {
		store.insert(newMember)
	}

	mutating func remove(_ member: Element) -> Element? { store.remove(member) }
	mutating func update(with newMember: Element) -> Element? { store.update(with: newMember) }
	mutating func formUnion(_ other: Self) { store.formUnion(other.store) }
	mutating func formIntersection(_ other: Self) { store.formIntersection(other.store) }
	mutating func formSymmetricDifference(_ other: Self) { store.formSymmetricDifference(other.store) }

	func toArray() -> [Element] { Array(store) }
}

/// A type with its own bridge, stored as a dictionary of strings.
struct SamplePerson: Hashable {
	let name: String
	let age: Int
}

struct SamplePersonBridge: Defaults.Bridge {
	typealias Value = SamplePerson
	typealias Serializable = [String: String]

	func serialize(_ value: SamplePerson?) -> [String: String]? {
		value.map { ["name": $0.name, "age": String($0.age)] }
	}

	func deserialize(_ object: [String: String]?) -> SamplePerson? {
		guard let name = object?["name"], let age = object?["age"].flatMap(Int.init) else {
			return nil
		}

		return SamplePerson(name: name, age: age)
	}
}

extension SamplePerson: Defaults.Serializable {
	static let bridge = SamplePersonBridge()
}
