import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

private struct Window: Codable, Hashable, Defaults.Serializable {
	var width: Int
	var height: Int
}

private enum Theme: String, Codable, Defaults.Serializable {
	case light
	case dark
}

/// One suite's keys of every kind the transfer handles.
private struct SettingsKeys {
	let window: Defaults.Key<Window>
	let theme: Defaults.Key<Theme>
	let volume: Defaults.Key<Double>
	let launched: Defaults.Key<Date>
	let token: Defaults.Key<Data>
	let tags: Defaults.Key<[String]>
	let homepage: Defaults.Key<URL?>

	init(_ suite: TestSuite) {
		window = .init("window", default: Window(width: 0, height: 0), suite: suite.defaults)
		theme = .init("theme", default: .light, suite: suite.defaults)
		volume = .init("volume", default: 0.5, suite: suite.defaults)
		launched = .init("launched", default: .distantPast, suite: suite.defaults)
		token = .init("token", default: Data(), suite: suite.defaults)
		tags = .init("tags", default: [], suite: suite.defaults)
		homepage = .init("homepage", suite: suite.defaults)
	}

	var all: [Defaults._AnyKey] {
		[window, theme, volume, launched, token, tags, homepage]
	}

	func fill() {
		Defaults[window] = Window(width: 1280, height: 800)
		Defaults[theme] = .dark
		Defaults[volume] = 0.25
		Defaults[launched] = Date(timeIntervalSince1970: 1_790_000_000.125)
		Defaults[token] = Data([0, 1, 2, 255])
		Defaults[tags] = ["a", "b"]
		Defaults[homepage] = URL(string: "https://example.com/a b")
	}
}

@Suite("Typed export and import: readable JSON, exact property lists, checked all-or-nothing imports")
struct SettingsTransferTests {
	@Test func jsonShowsCodableValuesAsObjectsAndReadsBackIntoAnotherSuite() throws {
		let source = TestSuite()
		let keys = SettingsKeys(source)
		keys.fill()

		let data = try Defaults.exportSettings(suite: source.defaults, declaring: keys.all)
		let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
		#expect(json["window"] as? [String: Int] == ["width": 1280, "height": 800], "a JSON object, not JSON in a string: \(json)")
		#expect(json["theme"] as? String == "dark")
		#expect(json["launched"] as? String == "2026-09-21T14:13:20.125Z")
		#expect(json["token"] as? String == "AAEC/w==")

		let target = TestSuite()
		let restored = SettingsKeys(target)
		let changed = try Defaults.importSettings(data, into: target.defaults, declaring: restored.all)

		#expect(Set(changed) == Set(keys.all.map(\.name)))
		#expect(Defaults[restored.window] == Window(width: 1280, height: 800))
		#expect(Defaults[restored.theme] == .dark)
		#expect(Defaults[restored.volume] == 0.25)
		#expect(Defaults[restored.launched] == Date(timeIntervalSince1970: 1_790_000_000.125))
		#expect(Defaults[restored.token] == Data([0, 1, 2, 255]))
		#expect(Defaults[restored.tags] == ["a", "b"])
		#expect(Defaults[restored.homepage] == URL(string: "https://example.com/a b"))
		#expect(target.raw("window") as? String == #"{"height":800,"width":1280}"#, "stored in the key's own form")
	}

	@Test func anUndeclaredExportReadsBackExactlyWithDataAndDatesTagged() throws {
		let source = TestSuite()
		SettingsKeys(source).fill()
		let data = try Defaults.exportSettings(suite: source.defaults)
		let text = String(decoding: data, as: UTF8.self)
		#expect(text.contains(#""$data" : "AAEC/w==""#), "\(text)")

		let target = TestSuite()
		try Defaults.importSettings(data, into: target.defaults)
		let restored = SettingsKeys(target)
		#expect(Defaults[restored.window] == Window(width: 1280, height: 800), "a Codable value exported as its stored JSON string")
		#expect(Defaults[restored.token] == Data([0, 1, 2, 255]))
		#expect(Defaults[restored.launched] == Date(timeIntervalSince1970: 1_790_000_000.125))
	}

	@Test func aPersonsEditIsCheckedAgainstTheKeysTypes() throws {
		let suite = TestSuite()
		let keys = SettingsKeys(suite)
		keys.fill()
		let edited = Data(#"{ "window": { "width": 640, "height": 480 }, "theme": "light", "volume": 1 }"#.utf8)

		try Defaults.importSettings(edited, into: suite.defaults, declaring: keys.all)

		#expect(Defaults[keys.window] == Window(width: 640, height: 480))
		#expect(Defaults[keys.theme] == .light)
		#expect(Defaults[keys.volume] == 1)
		#expect(Defaults[keys.tags] == ["a", "b"], "merged: values the file does not have stay")
	}

	@Test func oneValueThatDoesNotDecodeWritesNothing() throws {
		let suite = TestSuite()
		let keys = SettingsKeys(suite)
		keys.fill()
		try Defaults.flush(suite: suite.defaults)
		let before = try #require(suite.fileContents())
		let bad = Data(#"{ "theme": "light", "window": { "width": "wide" } }"#.utf8)

		#expect {
			try Defaults.importSettings(bad, into: suite.defaults, declaring: keys.all)
		} throws: { error in
			guard case .invalidValue(let key, let reason) = error as? Defaults.SettingsTransferError else {
				return false
			}

			return key == "window" && reason.contains("width")
		}

		#expect(Defaults[keys.theme] == .dark, "the valid value was not written either")
		#expect(NSDictionary(dictionary: try #require(suite.fileContents())) == NSDictionary(dictionary: before))
	}

	@Test func theErrorSaysWhichKeyAndWhy() {
		let suite = TestSuite()
		let keys = SettingsKeys(suite)
		#expect {
			try Defaults.importSettings(Data(#"{ "volume": "loud" }"#.utf8), into: suite.defaults, declaring: keys.all)
		} throws: { error in
			"\(error)" == #"'volume': expected a Double, found a string ("loud")"#
		}
	}

	@Test func replacingRemovesWhatTheFileDoesNotHaveAndKeepsTheMigrationVersion() throws {
		let suite = TestSuite()
		let keys = SettingsKeys(suite)
		keys.fill()
		try Defaults.migrate([Defaults.Migration(version: 3) { _ in }], suite: suite.defaults)

		try Defaults.importSettings(Data(#"{ "theme": "light", "@Defaults.migrationVersion": 1 }"#.utf8), into: suite.defaults, declaring: keys.all, replacing: true)

		#expect(Defaults[keys.theme] == .light)
		#expect(!suite.defaults.hasKey(keys.window))
		#expect(!suite.defaults.hasKey(keys.tags))
		#expect(suite.raw(KeyName.migrationVersion) as? Int == 3, "the library's own bookkeeping is neither imported nor removed")
	}

	@Test func observersHearEachImportedChange() throws {
		let suite = TestSuite()
		let keys = SettingsKeys(suite)
		Defaults[keys.theme] = .dark
		let heard = Locked<[String]>([])
		let observation = Defaults.observe(suite: suite.defaults) { @Sendable change in
			heard.withLock { $0.append(change.name) }
		}
		defer { observation.invalidate() }

		try Defaults.importSettings(Data(#"{ "theme": "dark", "volume": 0.75, "tags": ["x"] }"#.utf8), into: suite.defaults, declaring: keys.all)

		// (Whole-suite observers also hear the global domain, which other tests write.)
		#expect(Set(heard.withLock { $0 }).intersection(keys.all.map(\.name)) == ["volume", "tags"], "an unchanged value is no change")
	}

	@Test func aPropertyListExportIsWhatTheDefaultsToolImportsAndTheOtherWayRound() throws {
		let source = TestSuite()
		let keys = SettingsKeys(source)
		keys.fill()
		// The tool writes XML property lists, as macOS does, which keep dates to the second.
		Defaults[keys.launched] = Date(timeIntervalSince1970: 1_790_000_000)
		let exported = try Defaults.exportSettings(suite: source.defaults, format: .propertyList)
		#expect(String(decoding: exported.prefix(8), as: UTF8.self) == "bplist00", "binary: exact, dates to the microsecond")

		let viaTool = TestSuite()
		let imported = try ChildProcess.run(
			"defaults", ["import", viaTool.name, "-"],
			environment: ProcessInfo.processInfo.environment.merging(["XDG_CONFIG_HOME": TestEnvironment.configHome.path]) { $1 },
			input: exported
		)
		#expect(imported.status == 0, "\(imported.errorOutput)")
		let toolExport = try ChildProcess.run(
			"defaults", ["export", viaTool.name, "-"],
			environment: ProcessInfo.processInfo.environment.merging(["XDG_CONFIG_HOME": TestEnvironment.configHome.path]) { $1 }
		)
		#expect(toolExport.status == 0, "\(toolExport.errorOutput)")

		let target = TestSuite()
		try Defaults.importSettings(toolExport.outputData, into: target.defaults, declaring: SettingsKeys(target).all)
		let restored = SettingsKeys(target)
		#expect(Defaults[restored.window] == Window(width: 1280, height: 800))
		#expect(Defaults[restored.launched] == Date(timeIntervalSince1970: 1_790_000_000))
		#expect(Defaults[restored.token] == Data([0, 1, 2, 255]))
	}

	@Test func aPropertyListExportIsExact() throws {
		let source = TestSuite()
		SettingsKeys(source).fill()
		let exported = try Defaults.exportSettings(suite: source.defaults, format: .propertyList)

		let target = TestSuite()
		try Defaults.importSettings(exported, into: target.defaults)
		#expect(Defaults[SettingsKeys(target).launched] == Date(timeIntervalSince1970: 1_790_000_000.125))
		#expect(Defaults[SettingsKeys(target).volume] == 0.25)
	}

	@Test func exportingNamedKeysLeavesTheRestOut() throws {
		let suite = TestSuite()
		let keys = SettingsKeys(suite)
		keys.fill()
		Defaults.reset(keys.tags)

		let data = try Defaults.exportSettings([keys.theme, keys.tags])

		#expect(try JSONSerialization.jsonObject(with: data) as? [String: String] == ["theme": "dark"])
		#expect(throws: Defaults.SettingsTransferError.self) {
			try Defaults.exportSettings([keys.theme, Defaults.Key<Int>("other", default: 0, suite: TestSuite().defaults)])
		}
	}

	@Test(arguments: [
		("[1, 2]", "expected a JSON object of settings, found an array"),
		("{ broken", "invalid JSON"),
		("not a settings file", "neither JSON nor a property list"),
		(#"{ "value": null }"#, "null"),
		(#"{ "value": { "$data": "%%%" } }"#, "malformed"),
	])
	func badFilesAreRefusedWithAReason(text: String, reason: String) {
		let suite = TestSuite()
		#expect {
			try Defaults.importSettings(Data(text.utf8), into: suite.defaults)
		} throws: { error in
			"\(error)".contains(reason)
		}
		#expect(suite.fileContents() == nil, "nothing written")
	}

	@Test func jsonCannotHoldNaNButAPropertyListCan() throws {
		let suite = TestSuite()
		let key = Defaults.Key<Double>("ratio", default: 0, suite: suite.defaults)
		Defaults[key] = .nan

		#expect(throws: Defaults.SettingsTransferError.self) {
			try Defaults.exportSettings(suite: suite.defaults)
		}
		#expect(try Defaults.exportSettings(suite: suite.defaults, format: .propertyList).isEmpty == false)
	}
}
