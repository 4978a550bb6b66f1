import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

// Every code example of the Defaults 9.x README that can run on Linux, transcribed
// and checked against the results the README documents (its `//=>` comments).
//
// The README writes to `UserDefaults.standard` with fixed key names. Here each test
// uses its own suite and key names with a random suffix instead: tests run in
// parallel, and on Linux registered defaults are shared by every suite of the process.

// MARK: - Support

/// The suite of the keys declared in `extension Defaults.Keys` below.
///
/// `nonisolated(unsafe)`: Swift 6 rejects a global `let` of a non-`Sendable` type, and
/// on Linux `UserDefaults` is not `Sendable`. Only `readmeStaticKeysWithLeadingDotSyntax`
/// reads or writes this suite, so no two tests touch it at the same time.
private let readmeStaticSuiteName = "defaults-tests.readme.static.\(UUID().uuidString)"
nonisolated(unsafe) private let readmeStaticSuite = UserDefaults(suiteName: readmeStaticSuiteName)!

/// Makes the static key names unique to this process run.
private let readmeStaticSuffix = String(UUID().uuidString.prefix(8))

/// A key name no other test uses.
private func readmeKeyName(_ base: String) -> String {
	"\(base)_\(UUID().uuidString.prefix(8))"
}

/**
Runs a README example against a fresh suite, then deletes the suite.

The README examples are all valid uses of the library, so none of them may produce a diagnostic.
*/
private func withReadmeSuite(
	sourceLocation: SourceLocation = #_sourceLocation,
	_ body: (UserDefaults) throws -> Void
) throws {
	let testSuite = TestSuite("readme")
	let suite = testSuite.defaults

	let (_, diagnostics) = try DiagnosticReporter.capturing {
		try body(suite)
	}

	#expect(diagnostics.isEmpty, "README example reported diagnostics: \(diagnostics)", sourceLocation: sourceLocation)
}

/// `suite`, once the library's writes to it are flushed: what raw `UserDefaults` reads see then (the interop terms).
private func flushed(_ suite: UserDefaults) -> UserDefaults {
	try? Defaults.flush(suite: suite)
	return suite
}

// MARK: - Types from the README

/// README "Enum example": a `String` enum that is not `Codable`, stored as its raw value.
private enum ReadmeDurationKeys: String, Defaults.Serializable {
	case tenMinutes = "10 Minutes"
	case halfHour = "30 Minutes"
	case oneHour = "1 Hour"
}

/// README "Codable example".
private struct ReadmeCodableUser: Codable, Defaults.Serializable {
	let name: String
	let age: String
}

/// README "Custom types", step 1. `Hashable` is needed by the README's `Set<User>` key.
private struct ReadmeBridgedUser: Hashable {
	let name: String
	let age: String
}

/// README "Custom types", step 2.
private struct ReadmeUserBridge: Defaults.Bridge {
	typealias Value = ReadmeBridgedUser
	typealias Serializable = [String: String]

	public func serialize(_ value: Value?) -> Serializable? {
		guard let value else {
			return nil
		}

		return [
			"name": value.name,
			"age": value.age,
		]
	}

	public func deserialize(_ object: Serializable?) -> Value? {
		guard
			let object,
			let name = object["name"],
			let age = object["age"]
		else {
			return nil
		}

		return ReadmeBridgedUser(
			name: name,
			age: age
		)
	}
}

/// README "Custom types", step 3.
extension ReadmeBridgedUser: Defaults.Serializable {
	static let bridge = ReadmeUserBridge()
}

/// README "Dynamic value" (`mime`): a `String` enum that is not `Codable`.
private enum ReadmeMime: String, Defaults.Serializable {
	case JSON = "application/json"
	case STREAM = "application/octet-stream"
}

/// README "Serialization for ambiguous `Codable` type": raw value preferred over JSON.
private enum ReadmePreferRawMime: String, Codable, Defaults.Serializable, Defaults.PreferRawRepresentable {
	case JSON = "application/json"
}

/// The same enum without `PreferRawRepresentable`: `Codable` wins, so it is stored as JSON.
private enum ReadmeCodableMime: String, Codable, Defaults.Serializable {
	case JSON = "application/json"
}

/// README "Custom `Collection` type", step 1.
private struct ReadmeBag<Element: Defaults.Serializable>: Collection {
	var items: [Element]

	var startIndex: Int { items.startIndex }
	var endIndex: Int { items.endIndex }

	mutating func insert(element: Element, at: Int) {
		items.insert(element, at: at)
	}

	func index(after index: Int) -> Int {
		items.index(after: index)
	}

	subscript(position: Int) -> Element {
		items[position]
	}
}

/// README "Custom `Collection` type", step 2.
extension ReadmeBag: Defaults.CollectionSerializable {
	init(_ elements: [Element]) {
		self.items = elements
	}
}

/// README "Custom `SetAlgebra` type", step 1.
private struct ReadmeSetBag<Element: Defaults.Serializable & Hashable>: SetAlgebra {
	var store = Set<Element>()

	init() {}

	init(_ store: Set<Element>) {
		self.store = store
	}

	func contains(_ member: Element) -> Bool {
		store.contains(member)
	}

	func union(_ other: ReadmeSetBag) -> ReadmeSetBag {
		ReadmeSetBag(store.union(other.store))
	}

	func intersection(_ other: ReadmeSetBag) -> ReadmeSetBag {
		var setBag = ReadmeSetBag()
		setBag.store = store.intersection(other.store)
		return setBag
	}

	func symmetricDifference(_ other: ReadmeSetBag) -> ReadmeSetBag {
		var setBag = ReadmeSetBag()
		setBag.store = store.symmetricDifference(other.store)
		return setBag
	}

	@discardableResult
	mutating func insert(_ newMember: Element) -> (inserted: Bool, memberAfterInsert: Element) {
		store.insert(newMember)
	}

	mutating func remove(_ member: Element) -> Element? {
		store.remove(member)
	}

	mutating func update(with newMember: Element) -> Element? {
		store.update(with: newMember)
	}

	mutating func formUnion(_ other: ReadmeSetBag) {
		store.formUnion(other.store)
	}

	mutating func formSymmetricDifference(_ other: ReadmeSetBag) {
		store.formSymmetricDifference(other.store)
	}

	mutating func formIntersection(_ other: ReadmeSetBag) {
		store.formIntersection(other.store)
	}
}

/// README "Custom `SetAlgebra` type", step 2.
extension ReadmeSetBag: Defaults.SetAlgebraSerializable {
	func toArray() -> [Element] {
		Array(store)
	}
}

// MARK: - Keys declared the README way

extension Defaults.Keys {
	fileprivate static let readmeQuality = Key<Double>("readmeQuality_\(readmeStaticSuffix)", default: 0.8, suite: readmeStaticSuite)
	fileprivate static let readmeName = Key<Double?>("readmeName_\(readmeStaticSuffix)", suite: readmeStaticSuite)
	fileprivate static let readmeDefaultDuration = Key<ReadmeDurationKeys>("readmeDefaultDuration_\(readmeStaticSuffix)", default: .oneHour, suite: readmeStaticSuite)
	fileprivate static let readmeUser = Key<ReadmeCodableUser>("readmeUser_\(readmeStaticSuffix)", default: .init(name: "Hello", age: "24"), suite: readmeStaticSuite)
	fileprivate static let readmeIsUnicorn = Key<Bool>("readmeIsUnicorn_\(readmeStaticSuffix)", default: true, suite: readmeStaticSuite)
	fileprivate static let readmeIsUnicornMode = Key<Bool>("readmeIsUnicornMode_\(readmeStaticSuffix)", default: false, suite: readmeStaticSuite)
	fileprivate static let readmeBridgedUser = Defaults.Key<ReadmeBridgedUser>("readmeBridgedUser_\(readmeStaticSuffix)", default: ReadmeBridgedUser(name: "Hello", age: "24"), suite: readmeStaticSuite)
	fileprivate static let readmeMagic = Key<[String: Defaults.AnySerializable]>("readmeMagic_\(readmeStaticSuffix)", default: [:], suite: readmeStaticSuite)
	fileprivate static let readmeStringBag = Key<ReadmeBag<String>>("readmeStringBag_\(readmeStaticSuffix)", default: ReadmeBag(["Hello", "World!"]), suite: readmeStaticSuite)
	fileprivate static let readmeStringSet = Key<ReadmeSetBag<String>>("readmeStringSet_\(readmeStaticSuffix)", default: ReadmeSetBag(["Hello", "World!"]), suite: readmeStaticSuite)
}

// MARK: - Tests

@Suite("README examples")
struct ReadmeExamplesTests {
	@Test("extension Defaults.Keys with leading-dot syntax")
	func readmeStaticKeysWithLeadingDotSyntax() throws {
		_ = TestEnvironment.configHome
		defer {
			try? Defaults.flush(suite: readmeStaticSuite)
			// Not `removePersistentDomain`: it makes Foundation write every changed suite itself.
			for key in readmeStaticSuite.dictionaryRepresentation().keys {
				readmeStaticSuite.removeObject(forKey: key)
			}
			TestEnvironment.removeFiles(ofSuite: readmeStaticSuiteName)
		}

		let (_, diagnostics) = DiagnosticReporter.capturing {
			#expect(Defaults[.readmeQuality] == 0.8)
			Defaults[.readmeQuality] = 0.5
			#expect(Defaults[.readmeQuality] == 0.5)
			Defaults[.readmeQuality] += 0.1
			#expect(Defaults[.readmeQuality] == 0.6)

			var printed: Double?
			if let name = Defaults[.readmeName] {
				printed = name
			}
			#expect(printed == nil)

			#expect(Defaults[.readmeDefaultDuration].rawValue == "1 Hour")
			#expect(Defaults[.readmeUser].name == "Hello")
			#expect(Defaults[.readmeBridgedUser].name == "Hello")

			#expect(readmeStaticSuite[.readmeIsUnicorn] == true)
			#expect(flushed(readmeStaticSuite).bool(forKey: Defaults.Keys.readmeIsUnicorn.name) == true)

			Defaults[.readmeIsUnicornMode] = true
			#expect(Defaults[.readmeIsUnicornMode] == true)
			Defaults.reset(.readmeIsUnicornMode)
			#expect(Defaults[.readmeIsUnicornMode] == false)

			Defaults[.readmeMagic]["unicorn"] = "🦄"
			#expect(Defaults[.readmeMagic]["unicorn"]?.get(String.self) == "🦄")

			#expect(Defaults[.readmeStringBag][0] == "Hello")
			#expect(Defaults[.readmeStringBag][1] == "World!")
			#expect(Defaults[.readmeStringSet].contains("Hello"))
			#expect(Defaults[.readmeStringSet].contains("World!"))

			// `Defaults.Key` is also reachable as `Defaults.Keys.Key`.
			let aliased: Defaults.Keys.Key<Double> = Defaults.Keys.readmeQuality
			#expect(aliased === Defaults.Keys.readmeQuality)
		}

		#expect(diagnostics.isEmpty, "README example reported diagnostics: \(diagnostics)")
	}

	@Test("Usage: the quality key")
	func quality() throws {
		try withReadmeSuite { suite in
			let quality = Defaults.Key<Double>(readmeKeyName("quality"), default: 0.8, suite: suite)

			#expect(Defaults[quality] == 0.8)

			Defaults[quality] = 0.5
			#expect(Defaults[quality] == 0.5)

			Defaults[quality] += 0.1
			#expect(Defaults[quality] == 0.6)

			// `Defaults[.quality] = "🦄"` must not compile:
			// "Cannot assign value of type 'String' to type 'Double'".

			#expect(flushed(suite).double(forKey: quality.name) == 0.6)
		}
	}

	@Test("Usage: an optional key defaults to nil")
	func optionalKey() throws {
		try withReadmeSuite { suite in
			let name = Defaults.Key<Double?>(readmeKeyName("name"), suite: suite)

			var printed: [Double] = []
			if let name = Defaults[name] {
				printed.append(name)
			}
			#expect(printed.isEmpty)
			#expect(Defaults[name] == nil)
			#expect(flushed(suite).object(forKey: name.name) == nil)

			Defaults[name] = 1.5
			if let name = Defaults[name] {
				printed.append(name)
			}
			#expect(printed == [1.5])

			Defaults[name] = nil
			#expect(Defaults[name] == nil)
			#expect(flushed(suite).object(forKey: name.name) == nil)
		}
	}

	@Test("Usage: a dynamic default value")
	func dynamicDefault() throws {
		try withReadmeSuite { suite in
			// The README uses `Key<AVCaptureDevice?>("camera") { .default(for: .video) }`.
			let camera = Defaults.Key<Date?>(readmeKeyName("camera"), suite: suite) { .distantFuture }
			#expect(Defaults[camera] == .distantFuture)

			var calls = 0
			let counter = Defaults.Key<Int>(readmeKeyName("counter"), suite: suite) {
				calls += 1
				return calls * 10
			}

			// Not called when the key is created, called again on each read that finds nothing stored.
			#expect(calls == 0)
			#expect(Defaults[counter] == 10)
			#expect(Defaults[counter] == 20)

			// "A `Defaults.Key` with a dynamic default value will not register the default value in `UserDefaults`."
			#expect(flushed(suite).object(forKey: counter.name) == nil)
			#expect(flushed(suite).object(forKey: camera.name) == nil)

			Defaults[counter] = 5
			#expect(Defaults[counter] == 5)
			#expect(calls == 2)

			Defaults.reset(counter)
			#expect(Defaults[counter] == 30)
		}
	}

	@Test("Enum example")
	func enumExample() throws {
		try withReadmeSuite { suite in
			let defaultDuration = Defaults.Key<ReadmeDurationKeys>(readmeKeyName("defaultDuration"), default: .oneHour, suite: suite)

			#expect(Defaults[defaultDuration].rawValue == "1 Hour")
			#expect(flushed(suite).string(forKey: defaultDuration.name) == "1 Hour")

			Defaults[defaultDuration] = .halfHour
			#expect(Defaults[defaultDuration] == .halfHour)
			#expect(flushed(suite).string(forKey: defaultDuration.name) == "30 Minutes")
		}
	}

	@Test("Codable example")
	func codableExample() throws {
		try withReadmeSuite { suite in
			let user = Defaults.Key<ReadmeCodableUser>(readmeKeyName("user"), default: .init(name: "Hello", age: "24"), suite: suite)

			#expect(Defaults[user].name == "Hello")
			// "Debuggable: The data is stored as JSON-serialized values."
			#expect(flushed(suite).string(forKey: user.name) == #"{"age":"24","name":"Hello"}"#)

			Defaults[user] = ReadmeCodableUser(name: "Unicorn", age: "3")
			#expect(Defaults[user].name == "Unicorn")
			#expect(Defaults[user].age == "3")
			#expect(flushed(suite).string(forKey: user.name) == #"{"age":"3","name":"Unicorn"}"#)
		}
	}

	@Test("Use keys directly")
	func keysUsedDirectly() throws {
		try withReadmeSuite { suite in
			let isUnicorn = Defaults.Key<Bool>(readmeKeyName("isUnicorn"), default: true, suite: suite)

			#expect(Defaults[isUnicorn] == true)
		}
	}

	@Test("Reset keys to their default values")
	func reset() throws {
		try withReadmeSuite { suite in
			let isUnicornMode = Defaults.Key<Bool>(readmeKeyName("isUnicornMode"), default: false, suite: suite)

			Defaults[isUnicornMode] = true
			#expect(Defaults[isUnicornMode] == true)

			Defaults.reset(isUnicornMode)
			#expect(Defaults[isUnicornMode] == false)

			// "This works for a `Key` with an optional too, which will be reset back to `nil`."
			let name = Defaults.Key<String?>(readmeKeyName("name"), suite: suite)
			Defaults[name] = "Unicorn"
			#expect(Defaults[name] == "Unicorn")
			Defaults.reset(name)
			#expect(Defaults[name] == nil)

			// "Reset the given keys back to their default values": several keys at once.
			Defaults[isUnicornMode] = true
			Defaults[name] = "Unicorn"
			Defaults.reset(isUnicornMode, name)
			#expect(Defaults[isUnicornMode] == false)
			#expect(Defaults[name] == nil)

			// "You can also specify string keys."
			Defaults[isUnicornMode] = true
			Defaults[name] = "Unicorn"
			Defaults.reset(isUnicornMode.name, name.name, suite: suite)
			#expect(Defaults[isUnicornMode] == false)
			#expect(Defaults[name] == nil)

			Defaults[isUnicornMode] = true
			Defaults[name] = "Unicorn"
			let names = [isUnicornMode.name, name.name]
			Defaults.reset(names, suite: suite)
			#expect(Defaults[isUnicornMode] == false)
			#expect(Defaults[name] == nil)
		}
	}

	@Test("It's just UserDefaults with sugar")
	func userDefaultsSubscript() throws {
		try withReadmeSuite { suite in
			let isUnicorn = Defaults.Key<Bool>(readmeKeyName("isUnicorn"), default: true, suite: suite)

			// The README reads `UserDefaults.standard[.isUnicorn]`; this is the same subscript on another suite.
			#expect(suite[isUnicorn] == true)

			suite[isUnicorn] = false
			#expect(suite[isUnicorn] == false)
			#expect(Defaults[isUnicorn] == false)
		}
	}

	@Test("Shared UserDefaults")
	func sharedUserDefaults() throws {
		try withReadmeSuite { extensionDefaults in
			let isUnicorn = Defaults.Key<Bool>(readmeKeyName("isUnicorn"), default: true, suite: extensionDefaults)

			#expect(Defaults[isUnicorn] == true)
			#expect(extensionDefaults[isUnicorn] == true)

			Defaults[isUnicorn] = false
			#expect(extensionDefaults[isUnicorn] == false)
			#expect(flushed(extensionDefaults).bool(forKey: isUnicorn.name) == false)
		}
	}

	@Test("Default values are registered with UserDefaults")
	func registeredDefaults() throws {
		try withReadmeSuite { suite in
			let isUnicornMode = Defaults.Key<Bool>(readmeKeyName("isUnicornMode"), default: true, suite: suite)

			#expect(flushed(suite).bool(forKey: isUnicornMode.name) == true)

			// Registered, not stored: removing every stored value keeps it.
			Defaults[isUnicornMode] = false
			#expect(flushed(suite).bool(forKey: isUnicornMode.name) == false)
			Defaults.reset(isUnicornMode)
			#expect(flushed(suite).bool(forKey: isUnicornMode.name) == true)
		}
	}

	@Test("Custom types: a custom Bridge")
	func customBridge() throws {
		try withReadmeSuite { suite in
			let hello = ReadmeBridgedUser(name: "Hello", age: "24")
			let user = Defaults.Key<ReadmeBridgedUser>(readmeKeyName("user"), default: hello, suite: suite)
			let arrayUser = Defaults.Key<[ReadmeBridgedUser]>(readmeKeyName("arrayUser"), default: [hello], suite: suite)
			// The README names this key "user" too (a typo that would clash with the key above).
			let setUser = Defaults.Key<Set<ReadmeBridgedUser>>(readmeKeyName("setUser"), default: Set([hello]), suite: suite)
			let dictionaryUser = Defaults.Key<[String: ReadmeBridgedUser]>(readmeKeyName("dictionaryUser"), default: ["user": hello], suite: suite)

			#expect(Defaults[user].name == "Hello")
			#expect(Defaults[arrayUser][0].name == "Hello")
			#expect(Defaults[setUser].first?.name == "Hello")
			#expect(Defaults[dictionaryUser]["user"]?.name == "Hello")

			// The bridge's `[String: String]` is what `UserDefaults` holds.
			#expect(flushed(suite).dictionary(forKey: user.name) as? [String: String] == ["name": "Hello", "age": "24"])

			let unicorn = ReadmeBridgedUser(name: "Unicorn", age: "3")
			Defaults[user] = unicorn
			Defaults[arrayUser].append(unicorn)
			Defaults[setUser].insert(unicorn)
			Defaults[dictionaryUser]["unicorn"] = unicorn

			#expect(Defaults[user] == unicorn)
			#expect(Defaults[arrayUser] == [hello, unicorn])
			#expect(Defaults[setUser] == [hello, unicorn])
			#expect(Defaults[dictionaryUser] == ["user": hello, "unicorn": unicorn])

			#expect(flushed(suite).dictionary(forKey: user.name) as? [String: String] == ["name": "Unicorn", "age": "3"])
			#expect(flushed(suite).array(forKey: arrayUser.name) as? [[String: String]] == [["name": "Hello", "age": "24"], ["name": "Unicorn", "age": "3"]])
			#expect(flushed(suite).array(forKey: setUser.name)?.count == 2)
			let storedDictionary = flushed(suite).dictionary(forKey: dictionaryUser.name)
			#expect(storedDictionary?["unicorn"] as? [String: String] == ["name": "Unicorn", "age": "3"])
		}
	}

	@Test("Dynamic value: AnySerializable with a literal")
	func anySerializableLiteral() throws {
		try withReadmeSuite { suite in
			let any = Defaults.Key<Defaults.AnySerializable>(readmeKeyName("anyKey"), default: 1, suite: suite)
			#expect(Defaults[any].get(Int.self) == 1)

			Defaults[any] = "🦄"
			#expect(Defaults[any].get(String.self) == "🦄")
			#expect(flushed(suite).string(forKey: any.name) == "🦄")

			// The other literal conformances the README lists.
			Defaults[any] = 0.5
			#expect(Defaults[any].get(Double.self) == 0.5)

			Defaults[any] = true
			#expect(Defaults[any].get(Bool.self) == true)

			Defaults[any] = 42
			#expect(Defaults[any].get(Int.self) == 42)

			Defaults[any] = ["Hello", "World!"]
			#expect(Defaults[any].get([String].self) == ["Hello", "World!"])

			Defaults[any] = ["name": "Unicorn"]
			#expect(Defaults[any].get([String: String].self) == ["name": "Unicorn"])

			Defaults[any] = nil
			#expect(Defaults[any].get(Int.self) == 1)
		}
	}

	@Test("Dynamic value: AnySerializable get and set")
	func anySerializableGetSet() throws {
		try withReadmeSuite { suite in
			var printed: [String] = []

			// As the README writes it. Its default is an array holding one wrapped `mime`, so the
			// first `get()` as a single `mime` finds an array and returns nil, in the original package too.
			let any = Defaults.Key<Defaults.AnySerializable>(readmeKeyName("anyKey"), default: [Defaults.AnySerializable(ReadmeMime.JSON)], suite: suite)

			if let mimeType: ReadmeMime = Defaults[any].get() {
				printed.append(mimeType.rawValue)
			}
			#expect(printed.isEmpty)

			Defaults[any].set(ReadmeMime.STREAM)

			if let mimeType: ReadmeMime = Defaults[any].get() {
				printed.append(mimeType.rawValue)
			}
			#expect(printed == ["application/octet-stream"])
			#expect(flushed(suite).string(forKey: any.name) == "application/octet-stream")

			// What the README means: a default holding a single `mime`.
			printed = []
			let single = Defaults.Key<Defaults.AnySerializable>(readmeKeyName("anyKey"), default: Defaults.AnySerializable(ReadmeMime.JSON), suite: suite)

			if let mimeType: ReadmeMime = Defaults[single].get() {
				printed.append(mimeType.rawValue)
			}
			#expect(printed == ["application/json"])

			Defaults[single].set(ReadmeMime.STREAM)

			if let mimeType: ReadmeMime = Defaults[single].get() {
				printed.append(mimeType.rawValue)
			}
			#expect(printed == ["application/json", "application/octet-stream"])
			#expect(Defaults[single].get(ReadmeMime.self) == .STREAM)
		}
	}

	@Test("Dynamic value: [String: Defaults.AnySerializable]")
	func anySerializableDictionary() throws {
		try withReadmeSuite { suite in
			let magic = Defaults.Key<[String: Defaults.AnySerializable]>(readmeKeyName("magic"), default: [:], suite: suite)
			var printed: [String] = []

			Defaults[magic]["unicorn"] = "🦄"

			if let value: String = Defaults[magic]["unicorn"]?.get() {
				printed.append(value)
			}
			#expect(printed == ["🦄"])

			Defaults[magic]["number"] = 3
			Defaults[magic]["boolean"] = true
			Defaults[magic]["enum"] = Defaults.AnySerializable(ReadmeMime.JSON)

			if let mimeType: ReadmeMime = Defaults[magic]["enum"]?.get() {
				printed.append(mimeType.rawValue)
			}
			#expect(printed == ["🦄", "application/json"])

			#expect(Defaults[magic]["number"]?.get(Int.self) == 3)
			#expect(Defaults[magic]["boolean"]?.get(Bool.self) == true)

			let stored = try #require(flushed(suite).dictionary(forKey: magic.name))
			#expect(stored["unicorn"] as? String == "🦄")
			#expect(stored["number"] as? Int == 3)
			#expect(stored["boolean"] as? Bool == true)
			#expect(stored["enum"] as? String == "application/json")
		}
	}

	@Test("Serialization for ambiguous Codable type: PreferRawRepresentable")
	func preferRawRepresentable() throws {
		try withReadmeSuite { suite in
			let preferred = Defaults.Key<ReadmePreferRawMime>(readmeKeyName("mime"), default: .JSON, suite: suite)
			let codable = Defaults.Key<ReadmeCodableMime>(readmeKeyName("mime"), default: .JSON, suite: suite)

			// Registered defaults already have the stored form. The README shows the JSON form as
			// `"application/json"`; `JSONEncoder` (used by the original package too) escapes the slash.
			#expect(flushed(suite).string(forKey: preferred.name) == "application/json")
			#expect(flushed(suite).string(forKey: codable.name) == #""application\/json""#)

			Defaults[preferred] = .JSON
			Defaults[codable] = .JSON
			#expect(flushed(suite).string(forKey: preferred.name) == "application/json")
			#expect(flushed(suite).string(forKey: codable.name) == #""application\/json""#)
			#expect(Defaults[preferred] == .JSON)
			#expect(Defaults[codable] == .JSON)

			// The README's own example puts the enum in `[String: Defaults.AnySerializable]`.
			let magic = Defaults.Key<[String: Defaults.AnySerializable]>(readmeKeyName("magic"), default: [:], suite: suite)
			Defaults[magic]["preferred"] = Defaults.AnySerializable(ReadmePreferRawMime.JSON)
			Defaults[magic]["codable"] = Defaults.AnySerializable(ReadmeCodableMime.JSON)

			let stored = try #require(flushed(suite).dictionary(forKey: magic.name))
			#expect(stored["preferred"] as? String == "application/json")
			#expect(stored["codable"] as? String == #""application\/json""#)
			#expect(Defaults[magic]["preferred"]?.get(ReadmePreferRawMime.self) == .JSON)
			#expect(Defaults[magic]["codable"]?.get(ReadmeCodableMime.self) == .JSON)
		}
	}

	@Test("Custom Collection type")
	func customCollection() throws {
		try withReadmeSuite { suite in
			let stringBag = Defaults.Key<ReadmeBag<String>>(readmeKeyName("stringBag"), default: ReadmeBag(["Hello", "World!"]), suite: suite)

			#expect(Defaults[stringBag][0] == "Hello")
			#expect(Defaults[stringBag][1] == "World!")
			#expect(flushed(suite).array(forKey: stringBag.name) as? [String] == ["Hello", "World!"])

			Defaults[stringBag].insert(element: "Unicorn", at: 0)
			#expect(Array(Defaults[stringBag]) == ["Unicorn", "Hello", "World!"])
			#expect(flushed(suite).array(forKey: stringBag.name) as? [String] == ["Unicorn", "Hello", "World!"])
		}
	}

	@Test("Custom SetAlgebra type")
	func customSetAlgebra() throws {
		try withReadmeSuite { suite in
			let stringSet = Defaults.Key<ReadmeSetBag<String>>(readmeKeyName("stringSet"), default: ReadmeSetBag(["Hello", "World!"]), suite: suite)

			#expect(Defaults[stringSet].contains("Hello"))
			#expect(Defaults[stringSet].contains("World!"))
			#expect(Set(flushed(suite).array(forKey: stringSet.name) as? [String] ?? []) == ["Hello", "World!"])

			Defaults[stringSet].insert("Unicorn")
			#expect(Defaults[stringSet].contains("Unicorn"))
			#expect(Defaults[stringSet] == ReadmeSetBag(["Hello", "World!", "Unicorn"]))
			#expect(Set(flushed(suite).array(forKey: stringSet.name) as? [String] ?? []) == ["Hello", "World!", "Unicorn"])
		}
	}

	@Test("Defaults.removeAll(suite:)")
	func removeAll() throws {
		try withReadmeSuite { suite in
			let quality = Defaults.Key<Double>(readmeKeyName("quality"), default: 0.8, suite: suite)
			let name = Defaults.Key<String?>(readmeKeyName("name"), suite: suite)
			let user = Defaults.Key<ReadmeCodableUser>(readmeKeyName("user"), default: .init(name: "Hello", age: "24"), suite: suite)

			Defaults[quality] = 0.5
			Defaults[name] = "Unicorn"
			Defaults[user] = ReadmeCodableUser(name: "Unicorn", age: "3")

			Defaults.removeAll(suite: suite)

			#expect(Defaults[quality] == 0.8)
			#expect(Defaults[name] == nil)
			#expect(Defaults[user].name == "Hello")

			// Registered defaults stay.
			#expect(flushed(suite).double(forKey: quality.name) == 0.8)
		}
	}
}
