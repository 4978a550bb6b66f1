import DefaultsTestSupport
import DefaultsTesting
import Foundation
import Testing
@testable import Defaults

/**
Size budgets (issue 31): a write, an import or a migration that would pass a
suite's budget is refused before it changes anything, with a diagnostic or a
typed error; crossing the warning size is reported once. Budgets of a few
kilobytes keep the tests small.
*/
@Suite("Size budgets")
struct SizeBudgetTests {
	private static let budget = Defaults.SizeBudget(perValue: 1024, perSuite: 4096, warningFraction: 0.5)

	private static func blob(_ count: Int) -> Data {
		Data(repeating: 0xA5, count: count)
	}

	@Test func aValueOverThePerValueBudgetIsRefusedAndChangesNothing() throws {
		let suite = TestSuite()
		Defaults.setSizeBudget(Self.budget, suite: suite.defaults)
		let blob = Defaults.Key<Data>(suite.keyName("blob"), default: Data(), suite: suite.defaults)
		Defaults[blob] = Self.blob(100)
		try Defaults.flush(suite: suite.defaults)
		let fileBefore = try Data(contentsOf: suite.fileURL)
		let heard = Recorder<Int>()
		let observation = Defaults.observe(blob, options: [.prior]) { heard.append($0.newValue.count) }
		defer { observation.invalidate() }

		let reported = try diagnostics {
			Defaults[blob] = Self.blob(2000)
			try Defaults.flush(suite: suite.defaults)
		}

		#expect(reported.map(\.kind) == [.sizeBudgetExceeded], "\(reported)")
		let diagnostic = try #require(reported.first)
		#expect(diagnostic.key == blob.name)
		#expect(diagnostic.message.contains("1024 bytes"), "names the budget: \(diagnostic.message)")
		#expect(diagnostic.message.contains("20"), "names the size: \(diagnostic.message)")
		#expect(Defaults[blob].count == 100, "the value stays as it was")
		#expect(heard.values.isEmpty, "observers hear nothing, not even a prior notification")
		#expect(try Data(contentsOf: suite.fileURL) == fileBefore, "nothing reaches the file")
	}

	@Test func aWriteThatWouldPassTheSuiteBudgetIsRefusedAndRoomMadeLetsItIn() throws {
		let suite = TestSuite()
		Defaults.setSizeBudget(Self.budget, suite: suite.defaults)
		let keys = (0..<5).map { Defaults.Key<Data>(suite.keyName("part\($0)"), default: Data(), suite: suite.defaults) }
		let reported = try diagnostics {
			for key in keys.prefix(4) {
				Defaults[key] = Self.blob(900)
			}

			Defaults[keys[4]] = Self.blob(900)
			try Defaults.flush(suite: suite.defaults)
		}

		#expect(reported.map(\.kind) == [.sizeBudgetWarning, .sizeBudgetExceeded], "\(reported)")
		#expect(reported.last?.key == keys[4].name)
		#expect(reported.last?.message.contains("4096 bytes") == true)
		#expect(Defaults[keys[4]].isEmpty)
		#expect(suite.fileContents()?[keys[4].name] == nil)
		let size = try #require(try FileManager.default.attributesOfItem(atPath: suite.fileURL.path)[.size] as? Int)
		#expect(size <= 4096)

		// Making room lets the write in.
		let later = diagnostics {
			Defaults.reset(keys[0])
			Defaults[keys[4]] = Self.blob(900)
		}
		#expect(later.isEmpty, "\(later)")
		#expect(Defaults[keys[4]].count == 900)
	}

	/// The file's size is measured at the first write, not when it is read: what the file held before counts all the same.
	@Test func aFileFullBeforeTheSuiteIsOpenedRefusesTheWriteThatWouldPassTheBudget() throws {
		let suite = TestSuite()
		let names = (0..<4).map { suite.keyName("part\($0)") }
		let parts = Dictionary(uniqueKeysWithValues: names.map { ($0, Self.blob(900)) })
		try PropertyListSerialization.data(fromPropertyList: parts, format: .binary, options: 0).write(to: suite.fileURL)
		Defaults.setSizeBudget(Self.budget, suite: suite.defaults)
		let first = Defaults.Key<Data>(names[0], default: Data(), suite: suite.defaults)
		#expect(Defaults[first].count == 900, "read before anything is measured")

		let extra = Defaults.Key<Data>(suite.keyName("extra"), default: Data(), suite: suite.defaults)
		let reported = try diagnostics {
			Defaults[extra] = Self.blob(900)
			try Defaults.flush(suite: suite.defaults)
		}

		#expect(reported.map(\.kind) == [.sizeBudgetExceeded], "\(reported)")
		#expect(Defaults[extra].isEmpty)
		#expect(suite.fileContents()?[extra.name] == nil)
	}

	@Test func theWarningIsReportedOnceAndAgainAfterTheSuiteShrinks() throws {
		let suite = TestSuite()
		// Warned at 2048 bytes, armed again under 1844.
		Defaults.setSizeBudget(Self.budget, suite: suite.defaults)
		let keys = (0..<4).map { Defaults.Key<Data>(suite.keyName("part\($0)"), default: Data(), suite: suite.defaults) }
		var reported = diagnostics {
			Defaults[keys[0]] = Self.blob(900)
			Defaults[keys[1]] = Self.blob(900)
			Defaults[keys[2]] = Self.blob(900)
			Defaults[keys[2]] = Self.blob(950)
		}
		#expect(reported.map(\.kind) == [.sizeBudgetWarning], "once, at the write that crossed: \(reported)")
		#expect(reported.first?.key == keys[2].name)

		reported = diagnostics {
			Defaults.reset(keys[2])
			Defaults[keys[2]] = Self.blob(900)
		}
		#expect(reported.isEmpty, "still over 90% of the warning size: not armed again: \(reported)")

		reported = diagnostics {
			Defaults.reset(keys[1], keys[2])
			Defaults[keys[1]] = Self.blob(900)
			Defaults[keys[2]] = Self.blob(900)
		}
		#expect(reported.map(\.kind) == [.sizeBudgetWarning], "armed again once the suite shrank: \(reported)")

		reported = diagnostics {
			Defaults.setSizeBudget(Self.budget, suite: suite.defaults)
			Defaults[keys[3]] = Self.blob(10)
		}
		#expect(reported.map(\.kind) == [.sizeBudgetWarning], "a budget set arms it again: \(reported)")
	}

	@Test func theReportListsKeysLargestFirstAndTotalsTheFile() throws {
		let suite = TestSuite()
		let small = Defaults.Key<Int>(suite.keyName("small"), default: 0, suite: suite.defaults)
		let large = Defaults.Key<Data>(suite.keyName("large"), default: Data(), suite: suite.defaults)
		let medium = Defaults.Key<[String]>(suite.keyName("medium"), default: [], suite: suite.defaults)
		let text = Defaults.Key<String>(suite.keyName("text"), default: "", suite: suite.defaults)
		Defaults[small] = 7
		Defaults[large] = Self.blob(3000)
		Defaults[medium] = ["alpha", "beta", "gamma", "delta"]
		Defaults[text] = "héllo wörld"
		try Defaults.flush(suite: suite.defaults)

		let report = Defaults.sizeReport(suite: suite.defaults)
		#expect(report.entries.map(\.name) == [large.name, medium.name, text.name, small.name])
		#expect(report.entries.map(\.bytes) == report.entries.map(\.bytes).sorted(by: >))
		let fileSize = try #require(try FileManager.default.attributesOfItem(atPath: suite.fileURL.path)[.size] as? Int)
		#expect(report.totalBytes == fileSize, "the total is the file's size")
		let fixed = report.totalBytes - report.entries.map(\.bytes).reduce(0, +)
		#expect(fixed > 0 && fixed < 64, "the entries add up to the file but for its header, trailer and top dictionary: \(fixed)")
		#expect(report.budget == .platformDefault)
		#expect(Defaults.sizeBudget(suite: suite.defaults).perSuite == 64 * 1024 * 1024)
	}

	/// The tally kept write by write is the encoded size exactly, whatever the widths of references and offsets.
	@Test func theTallyIsTheEncodedSize() {
		var contents: [String: PropertyListValue] = [:]
		var tally = SuiteSizeTally()
		var measured = SuiteSizeTally()
		func write(_ name: String, _ value: PropertyListValue?) {
			let prospect = measured.prospect(name, SuiteSizeTally.shape(of: name, value))
			contents[name] = value
			tally.set(name, to: value)
			measured.apply(prospect, to: name)
			#expect(tally.size == PropertyListFileContents.encodedSize(contents))
			#expect(prospect.size == tally.size && measured.size == tally.size)
		}

		for index in 0..<400 {
			let value: PropertyListValue? = switch index % 5 {
			case 0: .data(Self.blob(index * 7))
			case 1: .array((0..<(index % 17)).map { .integer($0 * 1000) })
			case 2: .dictionary(["a": .string("x\(index)"), "ü": .double(1.5)])
			case 3: nil
			default: .string(String(repeating: "é", count: index % 40))
			}
			write("k\(index % 300)", value)
		}

		// Values replaced by others of the same shape (the prospect's shortcut), then by wider ones.
		for index in 0..<120 {
			write("same\(index % 6)", index < 100 ? .integer(index % 2 == 0 ? 3 : 4) : .integer(Int.max - index))
		}

		#expect(SuiteSizeTally(contents).entries.map(\.bytes) == tally.entries.map(\.bytes))
	}

	@Test func anImportThatWouldPassTheBudgetFailsAsAWhole() throws {
		let suite = TestSuite()
		Defaults.setSizeBudget(Self.budget, suite: suite.defaults)
		let kept = Defaults.Key<Int>(suite.keyName("kept"), default: 0, suite: suite.defaults)
		Defaults[kept] = 7
		try Defaults.flush(suite: suite.defaults)
		let fileBefore = try Data(contentsOf: suite.fileURL)
		let heard = Recorder<Int>()
		let observation = Defaults.observe(kept, options: []) { heard.append($0.newValue) }
		defer { observation.invalidate() }

		let tooLargeValue = try PropertyListSerialization.data(fromPropertyList: ["huge": Self.blob(2000), kept.name: 8], format: .binary, options: 0)
		#expect {
			try Defaults.importSettings(tooLargeValue, into: suite.defaults)
		} throws: { error in
			guard case .sizeBudgetExceeded(let key, let size, let budget)? = error as? Defaults.SettingsTransferError else {
				return false
			}

			return key == "huge" && size > 2000 && budget == 1024
		}

		let parts = (0..<6).reduce(into: [String: Any]()) { $0["part\($1)"] = Self.blob(900) }
		let tooLargeSuite = try PropertyListSerialization.data(fromPropertyList: parts.merging([kept.name: 9]) { $1 }, format: .binary, options: 0)
		#expect {
			try Defaults.importSettings(tooLargeSuite, into: suite.defaults)
		} throws: { error in
			guard case .sizeBudgetExceeded(nil, let size, 4096)? = error as? Defaults.SettingsTransferError else {
				return false
			}

			return size > 4096 && "\(error)".contains("4096")
		}

		#expect(Defaults[kept] == 7)
		#expect(heard.values.isEmpty)
		#expect(try Data(contentsOf: suite.fileURL) == fileBefore)
	}

	@Test func aMigrationThatWouldPassTheBudgetWritesNothing() throws {
		let suite = TestSuite()
		Defaults.setSizeBudget(Self.budget, suite: suite.defaults)
		let name = Defaults.Key<String>(suite.keyName("name"), default: "", suite: suite.defaults)
		Defaults[name] = "ada"
		try Defaults.flush(suite: suite.defaults)
		let fileBefore = try Data(contentsOf: suite.fileURL)

		let reported = diagnostics {
			#expect {
				try Defaults.migrate([
					Defaults.Migration(version: 1) { settings in
						try settings.setObject(Self.blob(5000), forKey: "history")
						settings[name] = "grace"
					},
				], suite: suite.defaults)
			} throws: { error in
				guard case .persistence(.sizeBudgetExceeded("history", _, 1024))? = error as? Defaults.MigrationError else {
					return false
				}

				return true
			}
		}

		#expect(reported.map(\.kind) == [.migrationFailed], "\(reported)")
		#expect(Defaults[name] == "ada")
		#expect(try Data(contentsOf: suite.fileURL) == fileBefore, "no change, no version recorded")
	}

	@Test func anInMemorySuiteHonoursItsBudget() throws {
		let suite = InMemoryDefaults()
		Defaults.setSizeBudget(Self.budget, suite: suite)
		let keys = (0..<5).map { Defaults.Key<Data>("part\($0)", default: Data(), suite: suite) }
		let reported = diagnostics {
			for key in keys {
				Defaults[key] = Self.blob(900)
			}
		}

		#expect(reported.map(\.kind) == [.sizeBudgetWarning, .sizeBudgetExceeded], "\(reported)")
		#expect(Defaults[keys[4]].isEmpty)
		let report = Defaults.sizeReport(suite: suite)
		#expect(report.entries.count == 4)
		#expect(report.totalBytes <= 4096)
		#expect(report.budget == Self.budget)
	}

	/// Foundation's copy changes behind the library's back (raw `UserDefaults`): the suite is measured again before a refusal, so raw removals make room.
	@Test func aFoundationBackedSuiteMeasuresAgainBeforeItRefuses() throws {
		let suite = TestSuite()
		Suite.keepValuesInFoundation(for: suite.defaults)
		let defaults = suite.defaults
		#expect(Suite.of(defaults).values is FoundationSuiteValues)
		Defaults.setSizeBudget(Defaults.SizeBudget(perSuite: 4096, warningFraction: 1), suite: defaults)
		let keys = (0..<5).map { Defaults.Key<Data>(suite.keyName("part\($0)"), default: Data(), suite: defaults) }
		var reported = diagnostics {
			for key in keys {
				Defaults[key] = Self.blob(900)
			}
		}
		#expect(reported.map(\.kind) == [.sizeBudgetExceeded], "\(reported)")

		defaults.removeObject(forKey: keys[0].name)
		reported = diagnostics {
			Defaults[keys[4]] = Self.blob(900)
		}
		#expect(reported.isEmpty, "\(reported)")
		#expect(Defaults[keys[4]].count == 900)
	}
}
