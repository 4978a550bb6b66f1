import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// One row: a value and the exact object SPEC §2 says is stored for it.
struct StoredFormatCase: CustomTestStringConvertible, @unchecked Sendable {
	let testDescription: String
	let check: (TestSuite) -> Void

	init<Value: Defaults.Serializable>(
		_ name: String,
		_ value: Value,
		stored expected: Any,
		sourceLocation: SourceLocation = #_sourceLocation
	) {
		testDescription = name
		check = { suite in
			let keyName = suite.keyName()
			let key = Defaults.Key<Value>(keyName, suite: suite.defaults) { value }
			Defaults[key] = value
			let stored = suite.raw(keyName)
			let expectedValue = PropertyListValue(expected)
			#expect(expectedValue != nil, "the expectation itself must be a property list", sourceLocation: sourceLocation)
			#expect(stored.flatMap(PropertyListValue.init) == expectedValue, "stored \(String(describing: stored))", sourceLocation: sourceLocation)
		}
	}
}

private let someUUID = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

@Suite("Stored representation matches SPEC §2")
struct StoredFormatTests {
	static let cases: [StoredFormatCase] = [
		StoredFormatCase("Bool", true, stored: true),
		StoredFormatCase("Int8 stored as an integer", Int8(-3), stored: -3),
		StoredFormatCase("UInt64.max", UInt64.max, stored: UInt64.max),
		StoredFormatCase("Float", Float(1.5), stored: Float(1.5)),
		StoredFormatCase("CGFloat stored as Double", CGFloat(2.5), stored: 2.5),
		StoredFormatCase("String", "text", stored: "text"),
		StoredFormatCase("Data", Data([1, 2]), stored: Data([1, 2])),
		StoredFormatCase("Date", Date(timeIntervalSince1970: 10), stored: Date(timeIntervalSince1970: 10)),
		StoredFormatCase("Codable as sorted-key JSON", SampleTime(hour: 1, minute: 0), stored: #"{"hour":1,"minute":0}"#),
		StoredFormatCase("URL as a JSON string", URL(string: "https://example.com")!, stored: #""https:\/\/example.com""#),
		StoredFormatCase("UUID as uuidString", someUUID, stored: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
		StoredFormatCase("RawRepresentable as raw value", SampleRawEnum.dark, stored: "dark"),
		StoredFormatCase("Int RawRepresentable as raw value", SampleIntEnum.two, stored: 2),
		StoredFormatCase("Codable & RawRepresentable as JSON", SampleCodableEnum.oneHour, stored: #""1 Hour""#),
		StoredFormatCase("PreferRawRepresentable as raw value", SamplePreferRawEnum.json, stored: "application/json"),
		StoredFormatCase("Codable & NSSecureCoding as JSON", SampleCodableArchivable(value: 3), stored: #"{"value":3}"#),
		StoredFormatCase("Optional as the wrapped value", Int?.some(5), stored: 5),
		StoredFormatCase("Array of natives", [1, 2], stored: [1, 2]),
		StoredFormatCase("Array of URLs", [URL(string: "https://a.b")!], stored: [#""https:\/\/a.b""#]),
		StoredFormatCase("Array of Codable", [SampleTime(hour: 1, minute: 2)], stored: [#"{"hour":1,"minute":2}"#]),
		StoredFormatCase("Set as an array", Set([7]), stored: [7]),
		StoredFormatCase("Dictionary keys via String(key)", [1: "a"], stored: ["1": "a"]),
		StoredFormatCase("Dictionary of UUIDs", ["id": someUUID], stored: ["id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"]),
		StoredFormatCase("Range as [lower, upper]", 1..<5, stored: [1, 5]),
		StoredFormatCase("ClosedRange as [lower, upper]", 0.5...1.5, stored: [0.5, 1.5]),
		StoredFormatCase("AnySerializable as the wrapped form", Defaults.AnySerializable(SampleRawEnum.light), stored: "light"),
		StoredFormatCase("AnySerializable array literal", [1, "two"] as Defaults.AnySerializable, stored: [1, "two"]),
		StoredFormatCase("custom Bridge", SamplePerson(name: "Ada", age: 36), stored: ["name": "Ada", "age": "36"]),
		StoredFormatCase("CollectionSerializable as an array", SampleBag(["x"]), stored: ["x"]),
		StoredFormatCase("SetAlgebraSerializable as an array", SampleSetBag(Set(["y"])), stored: ["y"]),
	]

	@Test(arguments: cases)
	func storedForm(_ testCase: StoredFormatCase) {
		testCase.check(TestSuite())
	}

	@Test func nsSecureCodingIsAKeyedArchive() throws {
		let suite = TestSuite()
		let name = suite.keyName()
		let key = Defaults.Key<SampleShape>(name, default: SampleShape(sides: 0, label: ""), suite: suite.defaults)
		Defaults[key] = SampleShape(sides: 3, label: "tri")
		let data = try #require(suite.raw(name) as? Data)
		let decoded = try NSKeyedUnarchiver.unarchivedObject(ofClass: SampleShape.self, from: data)
		#expect(decoded == SampleShape(sides: 3, label: "tri"))
	}

	@Test func preferNSSecureCodingStoresAnArchive() throws {
		let suite = TestSuite()
		let name = suite.keyName()
		let key = Defaults.Key<SamplePreferArchive>(name, default: SamplePreferArchive(value: 0), suite: suite.defaults)
		Defaults[key] = SamplePreferArchive(value: 9)
		#expect(suite.raw(name) is Data)
	}

	@Test func nilRemovesTheStoredValue() {
		let suite = TestSuite()
		let name = suite.keyName()
		let key = Defaults.Key<String?>(name, suite: suite.defaults)
		Defaults[key] = "x"
		#expect(suite.raw(name) as? String == "x")
		Defaults[key] = nil
		#expect(suite.raw(name) == nil)
		#expect(Defaults[key] == nil)
	}

	@Test func optionalKeyWithNonNilDefaultReadsTheDefaultAfterNil() {
		let suite = TestSuite()
		let name = suite.keyName()
		let key = Defaults.Key<Int?>(name, default: 7, suite: suite.defaults)
		Defaults[key] = 1
		Defaults[key] = nil
		#expect(Defaults[key] == 7)
	}

	@Test func dataWrittenByTheDefaultsPackageReadsBack() {
		// What the Defaults package leaves in a suite on Apple platforms, written here as raw objects.
		let suite = TestSuite()
		let names = (0..<6).map { _ in suite.keyName() }
		suite.defaults.setRawAndSynchronize(#"{"minute":5,"hour":2}"#, forKey: names[0])
		suite.defaults.setRawAndSynchronize(#""https:\/\/example.com\/a?b=c""#, forKey: names[1])
		suite.defaults.setRawAndSynchronize(#""1 Hour""#, forKey: names[2])
		suite.defaults.setRawAndSynchronize([#"{"hour":1,"minute":1}"#], forKey: names[3])
		suite.defaults.setRawAndSynchronize(["2": "two"], forKey: names[4])
		suite.defaults.setRawAndSynchronize([3, 9], forKey: names[5])

		#expect(suite.defaults[Defaults.Key<SampleTime>(names[0], default: SampleTime(hour: 0, minute: 0), suite: suite.defaults)] == SampleTime(hour: 2, minute: 5))
		#expect(suite.defaults[Defaults.Key<URL?>(names[1], suite: suite.defaults)] == URL(string: "https://example.com/a?b=c"))
		#expect(suite.defaults[Defaults.Key<SampleCodableEnum>(names[2], default: .tenMinutes, suite: suite.defaults)] == .oneHour)
		#expect(suite.defaults[Defaults.Key<[SampleTime]>(names[3], default: [], suite: suite.defaults)] == [SampleTime(hour: 1, minute: 1)])
		#expect(suite.defaults[Defaults.Key<[Int: String]>(names[4], default: [:], suite: suite.defaults)] == [2: "two"])
		#expect(suite.defaults[Defaults.Key<ClosedRange<Int>>(names[5], default: 0...0, suite: suite.defaults)] == 3...9)
	}
}
