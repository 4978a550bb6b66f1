import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// A bridge whose stored form Foundation cannot hold.
private struct UnstorableBridge: Defaults.Bridge {
	typealias Value = SampleUnstorable
	typealias Serializable = Any

	func serialize(_ value: SampleUnstorable?) -> Any? {
		value.map { _ in NSObject() }
	}

	func deserialize(_ object: Any?) -> SampleUnstorable? {
		nil
	}
}

private struct SampleUnstorable: Defaults.Serializable, Equatable {
	static let bridge = UnstorableBridge()
}

private struct SampleNotANumber: Codable, Equatable, Defaults.Serializable {
	var value: Double
}

@Suite("Bad input yields the default and a diagnostic")
struct BadInputTests {
	/// Stores `raw` under a fresh name, reads it as `Value`, and checks the outcome.
	private func expectDefault<Value: Defaults.Serializable & Equatable>(
		reading raw: Any,
		as _: Value.Type,
		default defaultValue: Value,
		sourceLocation: SourceLocation = #_sourceLocation
	) {
		let suite = TestSuite()
		let name = suite.keyName()
		suite.defaults.setRawAndSynchronize(raw, forKey: name)
		let before = suite.raw(name).flatMap(PropertyListValue.init)
		let key = Defaults.Key<Value>(name, default: defaultValue, suite: suite.defaults)

		var value: Value?
		let reported = diagnostics { value = Defaults[key] }

		#expect(value == defaultValue, sourceLocation: sourceLocation)
		#expect(reported.map(\.kind) == [.undecodableValue], sourceLocation: sourceLocation)
		#expect(reported.first?.key == name, sourceLocation: sourceLocation)
		#expect(suite.raw(name).flatMap(PropertyListValue.init) == before, "the stored value is left untouched", sourceLocation: sourceLocation)
	}

	@Test func wrongType() {
		expectDefault(reading: "not a number", as: Int.self, default: 4)
		expectDefault(reading: 12, as: String.self, default: "x")
		expectDefault(reading: "text", as: [String].self, default: ["d"])
		expectDefault(reading: ["a": 1], as: Date.self, default: .distantPast)
	}

	@Test func numberOutOfRange() {
		expectDefault(reading: 300, as: Int8.self, default: 1)
		expectDefault(reading: -1, as: UInt.self, default: 1)
		expectDefault(reading: 1.5, as: Int.self, default: 1)
	}

	@Test func malformedJSON() {
		expectDefault(reading: #"{"hour":1,"minute""#, as: SampleTime.self, default: SampleTime(hour: 0, minute: 0))
		expectDefault(reading: #"{"hour":"one","minute":0}"#, as: SampleTime.self, default: SampleTime(hour: 0, minute: 0))
		expectDefault(reading: "dark", as: SampleCodableEnum.self, default: .tenMinutes)
	}

	@Test func unknownRawValue() {
		expectDefault(reading: "purple", as: SampleRawEnum.self, default: .light)
	}

	@Test func malformedURLAndUUID() {
		expectDefault(reading: 42, as: URL.self, default: URL(string: "https://example.com")!)
		expectDefault(reading: "not-a-uuid", as: UUID.self, default: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)
	}

	@Test func oneBadElementInACollection() {
		expectDefault(reading: [1, "two", 3], as: [Int].self, default: [])
		expectDefault(reading: ["x": 1], as: [Int: Int].self, default: [:])
		expectDefault(reading: [1], as: ClosedRange<Int>.self, default: 0...0)
		expectDefault(reading: [5, 1], as: ClosedRange<Int>.self, default: 0...0)
	}

	@Test func truncatedArchive() throws {
		let archive = try NSKeyedArchiver.archivedData(withRootObject: SampleShape(sides: 3, label: "t"), requiringSecureCoding: true)
		expectDefault(reading: archive.prefix(archive.count / 2), as: SampleShape.self, default: SampleShape(sides: 0, label: ""))
		expectDefault(reading: Data("garbage".utf8), as: SampleShape.self, default: SampleShape(sides: 0, label: ""))
	}

	@Test func archiveOfAnotherClass() throws {
		// Foundation on Linux crashes when asked to unarchive the wrong class.
		let archive = try NSKeyedArchiver.archivedData(withRootObject: SampleOtherArchivable(), requiringSecureCoding: true)
		expectDefault(reading: archive, as: SampleShape.self, default: SampleShape(sides: 0, label: ""))
	}

	@Test func customBridgeRejectingTheStoredValue() {
		expectDefault(reading: ["name": "Ada"], as: SamplePerson.self, default: SamplePerson(name: "", age: 0))
	}

	@Test func unstorableBridgeOutputNeverReachesFoundation() {
		let suite = TestSuite()
		let name = suite.keyName()
		suite.defaults.setRawAndSynchronize("previous", forKey: name)
		let key = Defaults.Key<SampleUnstorable?>(name, suite: suite.defaults)

		let reported = diagnostics { Defaults[key] = SampleUnstorable() }

		#expect(reported.map(\.kind) == [.unencodableValue])
		#expect(reported.first?.key == name)
		#expect(suite.raw(name) as? String == "previous", "nothing was written")
	}

	@Test func codableThatFailsToEncodeWritesNothing() {
		let suite = TestSuite()
		let name = suite.keyName()
		let key = Defaults.Key<SampleNotANumber>(name, default: SampleNotANumber(value: 1), suite: suite.defaults)
		Defaults[key] = SampleNotANumber(value: 2)

		let reported = diagnostics { Defaults[key] = SampleNotANumber(value: .nan) }

		#expect(reported.map(\.kind) == [.unencodableValue])
		#expect(Defaults[key] == SampleNotANumber(value: 2))
	}

	@Test func unstorableDefaultIsReportedNotRegistered() {
		let suite = TestSuite()
		let name = suite.keyName()
		let reported = diagnostics {
			_ = Defaults.Key<SampleNotANumber>(name, default: SampleNotANumber(value: .infinity), suite: suite.defaults)
		}

		#expect(reported.map(\.kind) == [.unencodableValue])
		#expect(suite.raw(name) == nil)
	}

	@Test func anySerializableWithAnUnstorableElement() {
		let reported = diagnostics {
			let value: Defaults.AnySerializable = [1, NSObject()]
			#expect(value.get([Int].self) == nil)
		}

		#expect(reported.map(\.kind) == [.unencodableValue])
	}

	@Test func cgFloatAndNilNeverReachFoundationUnconverted() {
		// `set(CGFloat)` traps and `set(nil)` spins forever in Linux Foundation.
		let suite = TestSuite()
		let name = suite.keyName()
		let key = Defaults.Key<CGFloat?>(name, suite: suite.defaults)
		Defaults[key] = 1.25
		#expect(suite.raw(name) as? Double == 1.25)
		Defaults[key] = nil
		#expect(suite.raw(name) == nil)
	}
}
