import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// The same setting after its type gained `Codable`: stored as JSON now, as its raw value before.
private enum ThemeNowCodable: String, Codable, Defaults.Serializable {
	case light
	case dark
}

/// A setting whose type stopped being `Codable`: stored as its raw value now, as JSON before.
private enum ThemeNoLongerCodable: String, Defaults.Serializable {
	case light
	case dark
}

private struct Frog: Codable, Hashable, Defaults.Serializable {
	let name: String
}

@Suite("A stored form that never switches silently: other forms of the type are read, reported once, and replaced at the next write")
struct StoredFormFallbackTests {
	/// Stores `object` as it is, the way an older version of the app or another library left it.
	private func plant(_ object: Any, as name: String, in suite: TestSuite) {
		Suite.of(suite.defaults).change(name, to: object, origin: .local)
	}

	@Test func aRawValueReadsAfterTheTypeGainedCodableAndTheNextWriteStoresJSON() {
		let suite = TestSuite()
		let key = Defaults.Key<ThemeNowCodable>(suite.keyName("theme"), default: .light, suite: suite.defaults)
		plant("dark", as: key.name, in: suite)

		let reported = diagnostics {
			#expect(Defaults[key] == .dark)
			#expect(Defaults[key] == .dark)
		}
		#expect(reported.map(\.kind) == [.otherStoredForm], "reported once, however often it is read: \(reported)")
		#expect(suite.raw(key.name) as? String == "dark", "a read changes nothing stored")

		Defaults[key] = .dark
		#expect(suite.raw(key.name) as? String == "\"dark\"", "the next write stores the current form")
		#expect(diagnostics { _ = Defaults[key] }.isEmpty)
	}

	@Test func jsonReadsAfterTheTypeStoppedBeingCodable() {
		let suite = TestSuite()
		let key = Defaults.Key<ThemeNoLongerCodable>(suite.keyName("theme"), default: .light, suite: suite.defaults)
		plant("\"dark\"", as: key.name, in: suite)

		let reported = diagnostics { #expect(Defaults[key] == .dark) }
		#expect(reported.map(\.kind) == [.otherStoredForm])
	}

	@Test func jsonDataReadsWhereAJSONStringIsExpected() throws {
		let suite = TestSuite()
		let key = Defaults.Key<Frog>(suite.keyName("frog"), default: Frog(name: "none"), suite: suite.defaults)
		plant(try JSONEncoder().encode(Frog(name: "Kermit")), as: key.name, in: suite)

		let reported = diagnostics { #expect(Defaults[key] == Frog(name: "Kermit")) }
		#expect(reported.map(\.kind) == [.otherStoredForm])
		#expect(reported.first?.message.contains("JSON data") == true, "\(reported)")

		Defaults[key] = Defaults[key]
		#expect(suite.raw(key.name) as? String == #"{"name":"Kermit"}"#)
	}

	@Test func anOptionalArrayOfCodableStoredAsJSONDataReadsBack() throws {
		// SwiftyUserDefaults' `DefaultsKey<[Frog]?>`: the whole array as one JSON `Data`.
		let suite = TestSuite()
		let key = Defaults.Key<[Frog]?>(suite.keyName("frogs"), suite: suite.defaults)
		plant(try JSONEncoder().encode([Frog(name: "Kermit"), Frog(name: "Toad")]), as: key.name, in: suite)

		let reported = diagnostics { #expect(Defaults[key] == [Frog(name: "Kermit"), Frog(name: "Toad")]) }
		#expect(reported.map(\.kind) == [.otherStoredForm])
		Defaults[key]?.append(Frog(name: "Keroppi"))
		#expect(Defaults[key]?.count == 3)
		#expect(suite.raw(key.name) as? [String] != nil, "stored in the current form: an array of JSON strings")
	}

	@Test func propertyListDataReadsWhereJSONIsExpected() throws {
		let suite = TestSuite()
		let key = Defaults.Key<Frog>(suite.keyName("frog"), default: Frog(name: "none"), suite: suite.defaults)
		let encoder = PropertyListEncoder()
		encoder.outputFormat = .binary
		plant(try encoder.encode(Frog(name: "Kermit")), as: key.name, in: suite)

		let reported = diagnostics { #expect(Defaults[key] == Frog(name: "Kermit")) }
		#expect(reported.map(\.kind) == [.otherStoredForm])
		#expect(reported.first?.message.contains("property-list data") == true, "\(reported)")
	}

	@Test func aKeyedArchiveReadsWhereACodableFormIsExpected() throws {
		let suite = TestSuite()
		let key = Defaults.Key<SampleCodableArchivable>(suite.keyName("archived"), default: SampleCodableArchivable(value: 0), suite: suite.defaults)
		let archive = try #require(KeyedArchiveCoding.archive(SampleCodableArchivable(value: 42)))
		plant(archive, as: key.name, in: suite)

		let reported = diagnostics { #expect(Defaults[key].value == 42) }
		#expect(reported.map(\.kind) == [.otherStoredForm])
	}

	@Test func aRawIntegerReadsForAnIntegerEnumThatGainedCodable() {
		enum Level: Int, Codable, Defaults.Serializable {
			case low = 1
			case high = 2
		}

		let suite = TestSuite()
		let key = Defaults.Key<Level>(suite.keyName("level"), default: .low, suite: suite.defaults)
		plant(2, as: key.name, in: suite)

		let reported = diagnostics { #expect(Defaults[key] == .high) }
		#expect(reported.map(\.kind) == [.otherStoredForm])
	}

	@Test func aTypeStoredAsItIsGuessesNothingAcrossKinds() {
		let suite = TestSuite()
		let date = Defaults.Key<Date>(suite.keyName("date"), default: .distantPast, suite: suite.defaults)
		let words = Defaults.Key<[String]>(suite.keyName("words"), default: [], suite: suite.defaults)
		let numbers = Defaults.Key<[Int8]>(suite.keyName("numbers"), default: [], suite: suite.defaults)
		plant(Data(#""2001-01-01T00:00:00Z""#.utf8), as: date.name, in: suite)
		plant(Data(#"["a"]"#.utf8), as: words.name, in: suite)
		plant(#"[1,2]"#, as: numbers.name, in: suite)

		let reported = diagnostics {
			#expect(Defaults[date] == .distantPast)
			#expect(Defaults[words] == [])
			#expect(Defaults[numbers] == [])
		}
		#expect(reported.map(\.kind) == [.undecodableValue, .undecodableValue, .undecodableValue])
	}

	@Test func aFormThatDoesNotDecodeStillGivesTheDefaultAndOneDiagnostic() {
		let suite = TestSuite()
		let key = Defaults.Key<ThemeNowCodable>(suite.keyName("theme"), default: .light, suite: suite.defaults)
		plant("purple", as: key.name, in: suite)

		let reported = diagnostics { #expect(Defaults[key] == .light) }
		#expect(reported.map(\.kind) == [.undecodableValue])
		#expect(suite.raw(key.name) as? String == "purple", "nothing stored is lost")
	}

	@Test func aMigrationReadsOtherFormsToo() throws {
		let suite = TestSuite()
		let name = suite.keyName("frogs")
		plant(try JSONEncoder().encode([Frog(name: "Kermit")]), as: name, in: suite)

		try Defaults.migrate([
			Defaults.Migration(version: 1) { _ in },
		], suite: suite.defaults)
		try Defaults.migrate([
			Defaults.Migration(version: 1) { _ in },
			Defaults.Migration(version: 2) { settings in
				if let frogs = try settings.value([Frog].self, forKey: name) {
					try settings.set(frogs, forKey: name)
				}
			},
		], suite: suite.defaults)

		let key = Defaults.Key<[Frog]>(name, default: [], suite: suite.defaults)
		let reported = diagnostics { #expect(Defaults[key] == [Frog(name: "Kermit")]) }
		#expect(reported.isEmpty, "the migration stored the current form: \(reported)")
	}
}
