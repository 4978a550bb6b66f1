import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

@Suite("Suite names up to the longest a file name allows")
struct SuiteNameLengthTests {
	/// A unique name of exactly `bytes` UTF-8 bytes, padded with `padding`.
	private static func name(bytes: Int, padding: Character = "x") -> String {
		var name = "defaults-tests.length.\(UUID().uuidString)."
		while name.utf8.count + String(padding).utf8.count <= bytes {
			name.append(padding)
		}

		while name.utf8.count < bytes {
			name.append("x")
		}

		return name
	}

	/// Every file in the folder named after the suite: its file, lock, temporaries, asides and sync ledger.
	private static func files(of name: String) -> [String] {
		((try? FileManager.default.contentsOfDirectory(atPath: TestEnvironment.configHome.path)) ?? [])
			.filter { $0.hasPrefix(name) || $0.hasPrefix(".\(name)") }
	}

	private static func removeFiles(of name: String) {
		for file in files(of: name) {
			unlink(TestEnvironment.configHome.appendingPathComponent(file).path)
		}
	}

	@Test func theLongestNameFitsEveryFileNamedAfterIt() {
		#expect(PreferencesLocation.longestSuiteName == 198)
		#expect(SideFileNames.longestDerivedName(ofSuite: Self.name(bytes: 198)) == 255)
	}

	/// Lengths around the limit, and those that were accepted and then lost every write (229–249).
	@Test(arguments: [190, 198, 199, 229, 240, 249, 250])
	func aNameIsRefusedAtOnceOrWorksForEverything(_ length: Int) throws {
		let name = Self.name(bytes: length)
		defer { Self.removeFiles(of: name) }
		let defaults: UserDefaults
		do {
			defaults = try Defaults.suite(named: name)
		} catch {
			#expect(error == .invalidSuiteName(name))
			#expect(error.description.contains("is \(length) bytes long"), "\(error)")
			#expect(length > PreferencesLocation.longestSuiteName)
			return
		}

		#expect(length <= PreferencesLocation.longestSuiteName)
		let key = Defaults.Key<Int>("value", default: 0, suite: defaults)
		Defaults[key] = 1
		try Defaults.flush(suite: defaults)
		let url = TestEnvironment.fileURL(ofSuite: name)
		#expect(FileManager.default.fileExists(atPath: url.path))
		#expect(FileManager.default.fileExists(atPath: TestEnvironment.configHome.appendingPathComponent(".\(name).plist.lock").path))

		// An unreadable file is set aside under the longest name derived from the suite's.
		try Data("not a property list".utf8).write(to: url)
		Defaults[key] = 2
		let reported = try diagnostics {
			try Defaults.flush(suite: defaults)
		}
		#expect(reported.map(\.kind) == [.unreadableFile])
		#expect(Self.files(of: name).contains { $0.hasPrefix("\(name).unreadable-") })

		// The sync ledger's file, edited and set aside the same way.
		let ledger = try PreferencesFile(domain: "\(name).defaults-sync")
		try ledger.update { $0 = ["device": .string("a")] }
		try Data("not a property list".utf8).write(to: ledger.url)
		guard case .movedAside = try ledger.delete() else {
			Issue.record("the unreadable ledger was not set aside")
			return
		}
	}

	@Test func theLimitCountsBytesNotCharacters() {
		let name = Self.name(bytes: 199, padding: "é")
		#expect(name.count < 199)
		#expect(throws: Defaults.PersistenceError.invalidSuiteName(name)) {
			_ = try Defaults.suite(named: name)
		}
	}
}
