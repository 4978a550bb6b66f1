import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// A JSON export reads back as exactly what was stored: tag look-alikes, large unsigned integers, names, kinds.
@Suite("Faithful JSON export and import")
struct SettingsTransferFidelityTests {
	/// User dictionaries that look like the export's tags, alone and nested.
	private static var lookalikes: [String: Any] {
		[
			"date": ["$date": "2024-01-01T00:00:00Z"],
			"data": ["$data": "not Base64 %%"],
			"escaped": ["$$data": "AAE="],
			"nested": [["$date": 5], ["$$$date": "x"]],
			"twoMembers": ["$date": "2024-01-01T00:00:00Z", "other": "y"],
		]
	}

	@Test func dictionariesThatLookLikeTagsComeBackAsDictionaries() throws {
		let source = TestSuite()
		// A property list stores them exactly as they are.
		try Defaults.importSettings(PropertyListSerialization.data(fromPropertyList: Self.lookalikes, format: .binary, options: 0), into: source.defaults)

		let exported = try Defaults.exportSettings(suite: source.defaults)
		let target = TestSuite()
		try Defaults.importSettings(exported, into: target.defaults)

		for (name, value) in Self.lookalikes {
			#expect(PropertyListValue(try #require(target.raw(name))) == PropertyListValue(value), "\(name): \(String(decoding: exported, as: UTF8.self))")
		}
	}

	@Test func aDeclaredDictionaryThatLooksLikeATagComesBackUnderEitherReading() throws {
		let source = TestSuite()
		let name = source.keyName("lookalike")
		let key = Defaults.Key<[String: String]>(name, default: [:], suite: source.defaults)
		Defaults[key] = ["$date": "2024-01-01T00:00:00Z"]

		for declaredOnExport in [false, true] {
			let exported = try Defaults.exportSettings(suite: source.defaults, declaring: declaredOnExport ? [key] : [])
			for declaredOnImport in [false, true] {
				let target = TestSuite()
				let restored = Defaults.Key<[String: String]>(name, default: [:], suite: target.defaults)
				try Defaults.importSettings(exported, into: target.defaults, declaring: declaredOnImport ? [restored] : [])
				#expect(Defaults[restored] == ["$date": "2024-01-01T00:00:00Z"], "declared on export: \(declaredOnExport), on import: \(declaredOnImport)")
			}
		}
	}

	@Test func anExportWithoutEscapesReadsAsItAlwaysDid() throws {
		let suite = TestSuite()
		let old = #"{ "token": { "$data": "AAEC/w==" }, "when": { "$date": "2024-01-01T00:00:00Z" }, "plain": { "$date": 5 }, "pair": { "$data": "x", "a": 1 } }"#
		try Defaults.importSettings(Data(old.utf8), into: suite.defaults)

		#expect(suite.raw("token") as? Data == Data([0, 1, 2, 255]))
		#expect(suite.raw("when") as? Date == Date(timeIntervalSince1970: 1_704_067_200))
		#expect(PropertyListValue(try #require(suite.raw("plain"))) == .dictionary(["$date": .integer(5)]))
		#expect(PropertyListValue(try #require(suite.raw("pair"))) == .dictionary(["$data": .string("x"), "a": .integer(1)]))
	}

	@Test func unsignedIntegersAboveInt64MaxStayExact() throws {
		let source = TestSuite()
		let name = source.keyName("large")
		let key = Defaults.Key<UInt64>(name, default: 0, suite: source.defaults)
		Defaults[key] = .max

		for declared in [false, true] {
			let exported = try Defaults.exportSettings(suite: source.defaults, declaring: declared ? [key] : [])
			#expect(String(decoding: exported, as: UTF8.self).contains("18446744073709551615"), "\(String(decoding: exported, as: UTF8.self))")

			let target = TestSuite()
			let restored = Defaults.Key<UInt64>(name, default: 0, suite: target.defaults)
			try Defaults.importSettings(exported, into: target.defaults, declaring: declared ? [restored] : [])
			#expect(Defaults[restored] == .max, "declared: \(declared)")
		}
	}

	@Test(arguments: [
		(#"{ "": 1 }"#, "", "a key name cannot be empty"),
		(#"{ "x.y": 1 }"#, "x.y", "a key name cannot contain '.'"),
		(#"{ "@x": 1 }"#, "@x", "a key name cannot start with '@'"),
	])
	func namesNoKeyCanHaveAreRefused(text: String, name: String, reason: String) {
		let suite = TestSuite()
		#expect {
			try Defaults.importSettings(Data(text.utf8), into: suite.defaults)
		} throws: { error in
			guard case .invalidKeyName(let refused, let why) = error as? Defaults.SettingsTransferError else {
				return false
			}

			return refused == name && why == reason && "\(error)" == "'\(name)' is not a key's name: \(reason)"
		}
		#expect(suite.fileContents() == nil, "nothing written")
	}

	/// A whole suite's export leaves a refused name out (one diagnostic); an export naming the key refuses it: either way, every export can be imported.
	@Test func anExportNeverHoldsANameItsImportWouldRefuse() throws {
		let suite = TestSuite()
		var refused: Defaults.Key<Int>?
		let reported = diagnostics {
			refused = Defaults.Key<Int>("x.y", default: 0, suite: suite.defaults)
			Defaults[refused!] = 1
		}
		#expect(reported.map(\.kind) == [.invalidKeyName])
		let kept = Defaults.Key<Int>(suite.keyName("kept"), default: 0, suite: suite.defaults)
		Defaults[kept] = 2

		for format in [Defaults.SettingsFormat.json, .propertyList] {
			var exported = Data()
			let reported = try diagnostics {
				exported = try Defaults.exportSettings(suite: suite.defaults, format: format)
			}
			#expect(reported.map(\.kind) == [.invalidKeyName], "\(format): \(reported)")
			#expect(reported.first?.key == "x.y")

			let target = TestSuite()
			let imported = try Defaults.importSettings(exported, into: target.defaults)
			#expect(imported == [kept.name], "\(format): only the name an import takes")

			#expect {
				try Defaults.exportSettings([refused!, kept], format: format)
			} throws: { error in
				guard case .invalidKeyName("x.y", _) = error as? Defaults.SettingsTransferError else {
					return false
				}

				return true
			}
		}
	}

	/// Item 6 of issue 38: another program stored `a.b` (`defaults write D a.b v`); the whole suite is still exported, without it.
	@Test func aRefusedNameInTheFileLeavesTheRestOfTheSuiteExportable() throws {
		let suite = TestSuite()
		let name = suite.keyName("theme")
		try FileManager.default.createDirectory(at: suite.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
		try PropertyListSerialization.data(fromPropertyList: ["a.b": "v", name: "dark"], format: .binary, options: 0).write(to: suite.fileURL)

		var exported = Data()
		let reported = try diagnostics {
			exported = try Defaults.exportSettings(suite: suite.defaults)
		}

		#expect(reported.map(\.kind) == [.invalidKeyName], "one per name left out: \(reported)")
		#expect(reported.first?.key == "a.b")
		#expect(reported.first?.message.contains(suite.name) == true, "names the suite: \(reported)")
		let members = try #require(try JSONSerialization.jsonObject(with: exported) as? [String: Any])
		#expect(members.keys.sorted() == [name])
		#expect(members[name] as? String == "dark")
	}

	@Test(arguments: [
		(#"{ "count": "5" }"#, #"'count': expected an Int, found a string ("5")"#),
		(#"{ "count": true }"#, "'count': expected an Int, found a boolean (true)"),
		(#"{ "count": 1.5 }"#, "'count': expected an Int, found a real number (1.5)"),
		(#"{ "enabled": 1 }"#, "'enabled': expected a Bool, found an integer (1)"),
		(#"{ "ratio": "0.5" }"#, #"'ratio': expected a Double, found a string ("0.5")"#),
		(#"{ "sizes": [1, "2"] }"#, #"'sizes': not an Array<Int>: expected an Int, found a string ("2") at [1]"#),
	])
	func aValueOfAnotherKindIsRefusedAndNamed(text: String, message: String) throws {
		let suite = TestSuite()
		let keys: [Defaults._AnyKey] = [
			Defaults.Key<Int>("count", default: 0, suite: suite.defaults),
			Defaults.Key<Bool>("enabled", default: false, suite: suite.defaults),
			Defaults.Key<Double>("ratio", default: 0, suite: suite.defaults),
			Defaults.Key<[Int]>("sizes", default: [], suite: suite.defaults),
		]
		#expect {
			try Defaults.importSettings(Data(text.utf8), into: suite.defaults, declaring: keys)
		} throws: { error in
			"\(error)" == message
		}
		#expect(suite.fileContents() == nil, "nothing written")
	}

	@Test func aPropertyListValueOfAnotherKindIsRefusedToo() throws {
		let suite = TestSuite()
		let count = Defaults.Key<Int>("count", default: 0, suite: suite.defaults)
		let file = try PropertyListSerialization.data(fromPropertyList: ["count": "5"], format: .binary, options: 0)
		#expect {
			try Defaults.importSettings(file, into: suite.defaults, declaring: [count])
		} throws: { error in
			"\(error)" == #"'count': expected an Int, found a string ("5")"#
		}
	}

	@Test func valuesOfTheRightKindPassTheKindCheckEvenWhenDecodingMergesThem() throws {
		let suite = TestSuite()
		let sizes = Defaults.Key<Set<Int>>(suite.keyName("sizes"), default: [], suite: suite.defaults)
		let ratio = Defaults.Key<Double>(suite.keyName("ratio"), default: 0, suite: suite.defaults)
		let file = try PropertyListSerialization.data(fromPropertyList: [sizes.name: [1, 1, 2], ratio.name: 2], format: .binary, options: 0)

		try Defaults.importSettings(file, into: suite.defaults, declaring: [sizes, ratio])

		#expect(Defaults[sizes] == [1, 2])
		#expect(Defaults[ratio] == 2, "an integer is a number, as a Double is")
	}

	@Test func anImpossibleDateIsRefusedNotRolledOver() {
		let suite = TestSuite()
		#expect {
			try Defaults.importSettings(Data(#"{ "when": { "$date": "2024-02-30T00:00:00Z" } }"#.utf8), into: suite.defaults)
		} throws: { error in
			"\(error)" == "'when': malformed $date value: '2024-02-30T00:00:00Z' is not an ISO 8601 date (2024-02 has no day 30)"
		}
	}

	@Test func aTimedOutMigrationLockBlamesAMigration() {
		let migration = Defaults.PersistenceError.lockTimedOut(path: "/prefs/.s.plist.migration.lock", seconds: 2)
		#expect(migration.description.hasPrefix("a migration of this suite, by this process or another, held its migration lock /prefs/.s.plist.migration.lock"))
		let flush = Defaults.PersistenceError.lockTimedOut(path: "/prefs/.s.plist.lock", seconds: 2)
		#expect(flush.description.contains("a flush of this suite"))
	}

	/// Foundation's ISO 8601 text garbles dates far from ours (-1e11 s came back as -2.6e10) and a NaN date could not be imported: such dates are refused on export, as NaN reals are.
	@Test(arguments: [Double.nan, -1e11, 1e18, .infinity])
	func aDateJSONCannotHoldIsRefusedNotGarbled(_ seconds: Double) throws {
		let suite = TestSuite()
		let name = suite.keyName("date")
		try Defaults.importSettings(
			PropertyListSerialization.data(fromPropertyList: [name: Date(timeIntervalSinceReferenceDate: seconds)], format: .binary, options: 0),
			into: suite.defaults
		)

		#expect {
			try Defaults.exportSettings(suite: suite.defaults)
		} throws: { error in
			guard case .invalidValue(let key, _)? = error as? Defaults.SettingsTransferError else {
				return false
			}

			return key == name
		}
		#expect(try Defaults.exportSettings(suite: suite.defaults, format: .propertyList).isEmpty == false, "a property list holds it")
	}

	/// A message naming a NaN date trapped in `Date.description`.
	@Test func aNaNDateInAnImportIsNamedWithoutTrapping() throws {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName("count"), default: 0, suite: suite.defaults)
		let settings = try PropertyListSerialization.data(
			fromPropertyList: [key.name: [Date(timeIntervalSinceReferenceDate: .nan)]],
			format: .binary,
			options: 0
		)

		#expect {
			try Defaults.importSettings(settings, into: suite.defaults, declaring: [key])
		} throws: { error in
			"\(error)".contains("NaN")
		}
	}
}
