// What every doc comment's example may use without declaring it, as an app would have it.
// scripts/check-docs adds to each doc comment's program the declarations it does not make itself
// (one per line), with those of doc-comment-examples/<Module>.swift for the comments of that module.
import Defaults
import Foundation

extension Defaults.Keys {
	static let quality = Key<Double>("quality", default: 0.8)
	static let isUnicornMode = Key<Bool>("isUnicornMode", default: false)
	static let username = Key<String?>("username")
	static let fontSize = Key<Double>("fontSize", default: 13)
	static let theme = Key<String>("theme", default: "light")
	static let favoriteColors = Key<[String]>("favoriteColors", default: ["red"])
	static let volume = Key<Double>("volume", default: 0.5)
	static let magic = Key<[String: Defaults.AnySerializable]>("magic", default: [:])
	static let any = Key<Defaults.AnySerializable>("anyKey", default: 1)
	static let proxy = Key<String>("proxy", default: "")
}

enum Mime: String, Defaults.Serializable { case json = "application/json", stream = "application/octet-stream" }

/// A suite of the app's own.
var suite: UserDefaults { UserDefaults(suiteName: "com.example.app")! }

/// The app's migrations, as `Defaults.migrate` takes them.
var settingsMigrations: [Defaults.Migration] { [Defaults.Migration(version: 1) { settings in settings.rename("fontSize", to: "textSize") }] }

/// Where the app keeps a backup of its settings.
var backupURL: URL { URL(fileURLWithPath: "/tmp/settings-backup.json") }

/// A folder every device sees (a network share, a synced folder).
var syncFolder: URL { URL(fileURLWithPath: "/mnt/shared/settings") }

/// A `Codable` type of the app's.
struct Settings: Codable {
	var volume = 0.5
}

/// A set of the app's own (`extension Tags: Defaults.SetAlgebraSerializable`).
struct Tags: SetAlgebra {
	var storage: Set<String> = []

	init() {}
	func contains(_ member: String) -> Bool { storage.contains(member) }
	func union(_ other: Tags) -> Tags { Tags(storage: storage.union(other.storage)) }
	func intersection(_ other: Tags) -> Tags { Tags(storage: storage.intersection(other.storage)) }
	func symmetricDifference(_ other: Tags) -> Tags { Tags(storage: storage.symmetricDifference(other.storage)) }
	@discardableResult mutating func insert(_ member: String) -> (inserted: Bool, memberAfterInsert: String) { storage.insert(member) }
	@discardableResult mutating func remove(_ member: String) -> String? { storage.remove(member) }
	@discardableResult mutating func update(with member: String) -> String? { storage.update(with: member) }
	mutating func formUnion(_ other: Tags) { storage.formUnion(other.storage) }
	mutating func formIntersection(_ other: Tags) { storage.formIntersection(other.storage) }
	mutating func formSymmetricDifference(_ other: Tags) { storage.formSymmetricDifference(other.storage) }
	static func == (lhs: Tags, rhs: Tags) -> Bool { lhs.storage == rhs.storage }

	private init(storage: Set<String>) {
		self.storage = storage
	}
}

/// A collection of the app's own, stored as an array.
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

/// A set of the app's own, stored as an array.
struct SetBag<Element: Defaults.Serializable & Hashable>: SetAlgebra, Defaults.SetAlgebraSerializable {
	var store: Set<Element> = []

	init() {}
	init(_ elements: [Element]) { store = Set(elements) }
	func toArray() -> [Element] { Array(store) }
	func contains(_ member: Element) -> Bool { store.contains(member) }
	func union(_ other: Self) -> Self { Self(Array(store.union(other.store))) }
	func intersection(_ other: Self) -> Self { Self(Array(store.intersection(other.store))) }
	func symmetricDifference(_ other: Self) -> Self { Self(Array(store.symmetricDifference(other.store))) }
	@discardableResult mutating func insert(_ member: Element) -> (inserted: Bool, memberAfterInsert: Element) { store.insert(member) }
	@discardableResult mutating func remove(_ member: Element) -> Element? { store.remove(member) }
	@discardableResult mutating func update(with member: Element) -> Element? { store.update(with: member) }
	mutating func formUnion(_ other: Self) { store.formUnion(other.store) }
	mutating func formIntersection(_ other: Self) { store.formIntersection(other.store) }
	mutating func formSymmetricDifference(_ other: Self) { store.formSymmetricDifference(other.store) }
}
