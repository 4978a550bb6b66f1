import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// One row of the matrix: a value of some type, written and read back three ways.
struct RoundTripCase: CustomTestStringConvertible, @unchecked Sendable {
	let testDescription: String
	let check: (TestSuite) -> Void

	init<Value: Defaults.Serializable & Equatable>(
		_ name: String,
		_ value: Value,
		default defaultValue: Value,
		sourceLocation: SourceLocation = #_sourceLocation
	) {
		testDescription = name
		check = { suite in
			let key = Defaults.Key<Value>(suite.keyName(), default: defaultValue, suite: suite.defaults)
			let reported = diagnostics {
				#expect(Defaults[key] == defaultValue, "default before any write", sourceLocation: sourceLocation)
				Defaults[key] = value
				#expect(Defaults[key] == value, "read back in the same suite", sourceLocation: sourceLocation)
				#expect(suite.defaults[key] == value, "read through the suite subscript", sourceLocation: sourceLocation)
				let fresh = suite.reloadedFromDisk()
				#expect(fresh[key] == value, "read by a fresh suite object after a reload from disk", sourceLocation: sourceLocation)
			}
			#expect(reported.isEmpty, "\(reported)", sourceLocation: sourceLocation)
		}
	}
}

private let wholeSecondDate = Date(timeIntervalSince1970: 1_700_000_000)
private let complexURL = URL(string: "https://user@example.com:8443/a/b%20c?q=1&r=%C3%A9#frag")!

@Suite("Every supported type round-trips")
struct RoundTripMatrixTests {
	static let scalars: [RoundTripCase] = [
		RoundTripCase("Bool", true, default: false),
		RoundTripCase("Int.max", Int.max, default: 0),
		RoundTripCase("Int.min", Int.min, default: 0),
		RoundTripCase("Int8", Int8.min, default: 0),
		RoundTripCase("Int16", Int16.max, default: 0),
		RoundTripCase("Int32", Int32.min, default: 0),
		RoundTripCase("Int64.max", Int64.max, default: 0),
		RoundTripCase("UInt.max", UInt.max, default: 0),
		RoundTripCase("UInt8", UInt8.max, default: 0),
		RoundTripCase("UInt16", UInt16.max, default: 0),
		RoundTripCase("UInt32", UInt32.max, default: 0),
		RoundTripCase("UInt64.max", UInt64.max, default: 0),
		RoundTripCase("Float", Float(1.1), default: 0),
		RoundTripCase("Double", 0.1, default: 0),
		RoundTripCase("CGFloat", CGFloat(2.5), default: 0),
		RoundTripCase("String", "héllo 🦄\nsecond line", default: ""),
		RoundTripCase("empty String", "", default: "x"),
		RoundTripCase("Data", Data([0, 1, 2, 255]), default: Data()),
		RoundTripCase("Date", wholeSecondDate, default: Date(timeIntervalSince1970: 0)),
		RoundTripCase("URL", complexURL, default: URL(string: "https://example.com")!),
		RoundTripCase("file URL", URL(fileURLWithPath: "/tmp/a b.txt"), default: URL(string: "https://example.com")!),
		RoundTripCase("UUID", UUID(), default: UUID()),
		RoundTripCase("Range", 1..<5, default: 0..<1),
		RoundTripCase("ClosedRange<Double>", 0.5...1.5, default: 0...1),
		RoundTripCase("ClosedRange<Date>", wholeSecondDate...wholeSecondDate.addingTimeInterval(60), default: wholeSecondDate...wholeSecondDate),
		RoundTripCase("Codable struct", SampleTime(hour: 1, minute: 30), default: SampleTime(hour: 0, minute: 0)),
		RoundTripCase("Codable enum with payloads", SampleIndirectCodable.pair(1, 2), default: .leaf("x")),
		RoundTripCase("Codable & RawRepresentable enum", SampleCodableEnum.oneHour, default: .tenMinutes),
		RoundTripCase("RawRepresentable String enum", SampleRawEnum.dark, default: .light),
		RoundTripCase("RawRepresentable Int enum", SampleIntEnum.two, default: .one),
		RoundTripCase("PreferRawRepresentable enum", SamplePreferRawEnum.json, default: .json),
		RoundTripCase("NSSecureCoding object", SampleShape(sides: 3, label: "triangle"), default: SampleShape(sides: 0, label: "")),
		RoundTripCase("Codable & NSSecureCoding object", SampleCodableArchivable(value: 3), default: SampleCodableArchivable(value: 0)),
		RoundTripCase("PreferNSSecureCoding object", SamplePreferArchive(value: 4), default: SamplePreferArchive(value: 0)),
		RoundTripCase("custom Bridge", SamplePerson(name: "Ada", age: 36), default: SamplePerson(name: "", age: 0)),
		RoundTripCase("AnySerializable", Defaults.AnySerializable("🦄"), default: 1),
	]

	static let optionals: [RoundTripCase] = [
		RoundTripCase("Int?", Int?.some(42), default: nil),
		RoundTripCase("String?", String?.some("x"), default: nil),
		RoundTripCase("URL?", URL?.some(complexURL), default: nil),
		RoundTripCase("UUID?", UUID?.some(UUID()), default: nil),
		RoundTripCase("Float?", Float?.some(-3.25), default: nil),
		RoundTripCase("Codable struct?", SampleTime?.some(SampleTime(hour: 2, minute: 3)), default: nil),
		RoundTripCase("RawRepresentable enum?", SampleRawEnum?.some(.dark), default: nil),
		RoundTripCase("NSSecureCoding object?", SampleShape?.some(SampleShape(sides: 4, label: "square")), default: nil),
	]

	static let collections: [RoundTripCase] = [
		RoundTripCase("[Int]", [1, 2, 3], default: []),
		RoundTripCase("[Int8]", [Int8.min, 0, Int8.max], default: []),
		RoundTripCase("[Float]", [Float(1.1), 2.2], default: []),
		RoundTripCase("[UInt64]", [UInt64.max, 0], default: []),
		RoundTripCase("[URL]", [complexURL, URL(string: "https://example.com")!], default: []),
		RoundTripCase("[UUID]", [UUID(), UUID()], default: []),
		RoundTripCase("[Date]", [wholeSecondDate], default: []),
		RoundTripCase("[Codable struct]", [SampleTime(hour: 1, minute: 2)], default: []),
		RoundTripCase("[RawRepresentable enum]", [SampleRawEnum.dark, .light], default: []),
		RoundTripCase("[custom Bridge]", [SamplePerson(name: "A", age: 1)], default: []),
		RoundTripCase("[NSSecureCoding]", [SampleShape(sides: 5, label: "p")], default: []),
		RoundTripCase("Set<String>", Set(["a", "b"]), default: []),
		RoundTripCase("Set<URL>", Set([complexURL]), default: []),
		RoundTripCase("Set<Codable struct>", Set([SampleTime(hour: 1, minute: 1)]), default: []),
		RoundTripCase("[String: Int]", ["a": 1, "b": 2], default: [:]),
		RoundTripCase("[Int: String]", [1: "a", 2: "b"], default: [:]),
		RoundTripCase("[String: URL]", ["home": complexURL], default: [:]),
		RoundTripCase("[String: Codable struct]", ["t": SampleTime(hour: 3, minute: 4)], default: [:]),
		RoundTripCase("[String: UInt8]", ["x": UInt8.max], default: [:]),
		RoundTripCase("[String: AnySerializable]", ["s": "🦄", "n": 3, "b": true, "a": [1, "x"]] as [String: Defaults.AnySerializable], default: [:]),
		RoundTripCase("CollectionSerializable", SampleBag(["Hello", "World"]), default: SampleBag([])),
		RoundTripCase("CollectionSerializable of URL", SampleBag([complexURL]), default: SampleBag([])),
		RoundTripCase("SetAlgebraSerializable", SampleSetBag(Set([1, 2])), default: SampleSetBag()),
		RoundTripCase("[Range]", [1..<2, 3..<4], default: []),
		RoundTripCase("Optional array", [String]?.some(["x"]), default: nil),
	]

	static let nested: [RoundTripCase] = [
		RoundTripCase("[[String: Set<[String: Int]>]]", [["a": Set([["x": 1], ["y": 2]])]], default: []),
		RoundTripCase("[String: [[URL]]]", ["links": [[complexURL], []]], default: [:]),
		RoundTripCase("[[[Codable struct]]]", [[[SampleTime(hour: 1, minute: 1)]], [[]]], default: []),
		RoundTripCase("[String: [String: [Int8]]]", ["a": ["b": [Int8.min]]], default: [:]),
		RoundTripCase("[[UUID?]]", [[UUID()]], default: []),
		RoundTripCase("[Int: [String: Set<SampleRawEnum>]]", [1: ["x": [SampleRawEnum.dark]]] as [Int: [String: Set<SampleRawEnum>]], default: [:]),
		RoundTripCase("[[String: [UInt64]]]", [["big": [UInt64.max]]], default: []),
		RoundTripCase("[String: [[Float]]]", ["f": [[Float(0.1)]]], default: [:]),
	]

	@Test(arguments: scalars)
	func scalar(_ testCase: RoundTripCase) {
		testCase.check(TestSuite())
	}

	@Test(arguments: optionals)
	func optional(_ testCase: RoundTripCase) {
		testCase.check(TestSuite())
	}

	@Test(arguments: collections)
	func collection(_ testCase: RoundTripCase) {
		testCase.check(TestSuite())
	}

	@Test(arguments: nested)
	func nestedThreeLevels(_ testCase: RoundTripCase) {
		testCase.check(TestSuite())
	}

	@Test func dateKeepsSubSecondPrecisionInProcess() {
		let suite = TestSuite()
		let key = Defaults.Key<Date>(suite.keyName(), default: .distantPast, suite: suite.defaults)
		let precise = Date(timeIntervalSince1970: 1_700_000_000.123_456)
		Defaults[key] = precise
		#expect(Defaults[key] == precise)
		#expect(UserDefaults(suiteName: suite.name)![key] == precise)
	}

	@Test func reloadReallyReadsTheFile() throws {
		let suite = TestSuite()
		let name = suite.keyName()
		let key = Defaults.Key<Float>(name, default: 0, suite: suite.defaults)
		Defaults[key] = 1.1
		let fresh = suite.reloadedFromDisk()
		#expect(fresh !== suite.defaults)
		#expect(fresh.object(forKey: name) is Float, "the file keeps a Float a Float (Foundation's own XML turns it into a Double)")
		#expect(fresh[key] == Float(1.1))
	}
}

@Suite("Date precision across a reload")
struct DatePrecisionAcrossReloadTests {
	@Test func subSecondPrecisionAfterAReload() {
		let suite = TestSuite()
		let key = Defaults.Key<Date>(suite.keyName(), default: .distantPast, suite: suite.defaults)
		let precise = Date(timeIntervalSince1970: 1_700_000_000.25)
		Defaults[key] = precise
		let fresh = suite.reloadedFromDisk()
		// Foundation's own XML writer keeps whole seconds; the library's binary file keeps them all.
		#expect(fresh[key] == precise)
	}
}
