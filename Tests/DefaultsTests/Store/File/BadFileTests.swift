import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

@Suite("Unreadable files, failing writes, bad suite names")
struct BadFileTests {
	private static let validArchive = try! PropertyListSerialization.data(
		fromPropertyList: ["a": 1, "b": "two", "c": [1, 2, 3]],
		format: .binary,
		options: 0
	)

	static let unreadableContents: [(String, Data)] = [
		("garbage", Data("this is not a property list".utf8)),
		("empty", Data()),
		("truncated", validArchive.prefix(validArchive.count / 2)),
		("XML cut short", Data(#"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>a</key>"#.utf8)),
	]

	@Test(arguments: unreadableContents.indices)
	func unreadableFileIsMovedAsideAndRewrittenFromMemory(_ index: Int) throws {
		let (label, bytes) = Self.unreadableContents[index]
		let suite = TestSuite("unreadable")
		let before = Defaults.Key<Int>(suite.keyName("before"), default: 0, suite: suite.defaults)
		let after = Defaults.Key<Int>(suite.keyName("after"), default: 0, suite: suite.defaults)
		Defaults[before] = 1
		try Defaults.flush(suite: suite.defaults)

		try bytes.write(to: suite.fileURL)
		Defaults[after] = 2
		let reported = try diagnostics {
			try Defaults.flush(suite: suite.defaults)
		}

		#expect(reported.map(\.kind) == [.unreadableFile], "\(label)")
		let contents = try #require(suite.fileContents(), "\(label)")
		#expect(contents[before.name] as? Int == 1, "a key that was on disk before is not lost (\(label))")
		#expect(contents[after.name] as? Int == 2)

		let asides = try FileManager.default.contentsOfDirectory(atPath: TestEnvironment.configHome.path)
			.filter { $0.hasPrefix("\(suite.name).unreadable-") }
		if bytes.isEmpty {
			#expect(asides.isEmpty, "nothing to keep from an empty file")
		} else {
			#expect(asides.count == 1, "\(label)")
			let aside = TestEnvironment.configHome.appendingPathComponent(try #require(asides.first))
			#expect(FileManager.default.contents(atPath: aside.path) == bytes, "the unreadable bytes are kept for the user")
			try? FileManager.default.removeItem(at: aside)
		}
	}

	/// A process that only reads saw every default without a word until its first write (no diagnostic before).
	@Test func aProcessThatOnlyReadsIsToldTheFileDoesNotParse() throws {
		let suite = TestSuite()
		let garbage = Data("this is not a property list".utf8)
		try garbage.write(to: suite.fileURL)
		var value = -1
		let reported = diagnostics {
			let key = Defaults.Key<Int>(suite.keyName(), default: 3, suite: suite.defaults)
			value = Defaults[key]
			value = Defaults[key]
		}

		#expect(value == 3)
		#expect(reported.map(\.kind) == [.unreadableFile], "\(reported)")
		#expect(reported.first?.message.contains(suite.fileURL.path) == true)
		#expect(FileManager.default.contents(atPath: suite.fileURL.path) == garbage, "reading sets nothing aside")
	}

	@Test(arguments: ["No space left on device", "Read-only file system"])
	func failingWritesLoseNothing(_ reason: String) throws {
		let suite = TestSuite()
		let stored = Defaults.Key<Int>(suite.keyName("stored"), default: 0, suite: suite.defaults)
		let pending = Defaults.Key<Int>(suite.keyName("pending"), default: 0, suite: suite.defaults)
		Defaults[stored] = 1
		try Defaults.flush(suite: suite.defaults)

		Suite.install(FailingFileSystem(reason: reason), for: suite.defaults)
		Defaults[pending] = 2
		#expect(throws: Defaults.PersistenceError.self) {
			try Defaults.flush(suite: suite.defaults)
		}
		let reported = diagnostics {
			Suite.of(suite.defaults).file?.flushReportingFailure()
		}

		#expect(reported.map(\.kind) == [.persistenceFailed])
		#expect(reported.first?.message.contains(reason) == true)
		#expect(suite.fileContents()?[stored.name] as? Int == 1, "what was on disk is untouched")
		#expect(Defaults[pending] == 2, "the change stays in memory")

		Suite.install(POSIXFileSystem(), for: suite.defaults)
		Defaults[pending] = 3
		try Defaults.flush(suite: suite.defaults)
		#expect(suite.fileContents()?[pending.name] as? Int == 3)
		#expect(suite.fileContents()?[stored.name] as? Int == 1)
	}

	@Test(.enabled(if: geteuid() != 0, "root ignores folder permissions"))
	func readOnlyFolder() throws {
		let folder = TestEnvironment.configHome.appendingPathComponent("read-only-\(UUID().uuidString)")
		try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
		chmod(folder.path, 0o500)
		defer {
			chmod(folder.path, 0o700)
			try? FileManager.default.removeItem(at: folder)
		}

		#expect(throws: Defaults.PersistenceError.self) {
			try POSIXFileSystem().replaceAtomically(folder.appendingPathComponent("x.plist"), with: Data())
		}
	}

	@Test(arguments: ["", ".", "..", "../escape", "a/b", "/absolute"])
	func escapingSuiteNamesAreRejected(_ name: String) {
		#expect(throws: Defaults.PersistenceError.invalidSuiteName(name)) {
			_ = try Defaults.suite(named: name)
		}
	}

	@Test func keysOnAnEscapingSuiteStayInMemoryWithADiagnostic() throws {
		let name = "../escape-\(UUID().uuidString)"
		let suite = try #require(UserDefaults(suiteName: name))
		var key: Defaults.Key<Int>?
		let reported = diagnostics {
			key = Defaults.Key<Int>("value", default: 0, suite: suite)
			Defaults[key!] = 7
		}

		#expect(Defaults[key!] == 7)
		#expect(reported.map(\.kind) == [.persistenceFailed], "reported once, when the suite is first used")
		#expect(reported.first?.message.contains(name) == true)
		#expect(throws: Defaults.PersistenceError.invalidSuiteName(name)) {
			try Defaults.flush(suite: suite)
		}
		let escaped = TestEnvironment.configHome.deletingLastPathComponent().appendingPathComponent("escape-\(name.dropFirst(10)).plist")
		#expect(!FileManager.default.fileExists(atPath: escaped.path))
	}

	@Test func noHomeAndNoConfigHomeIsAnError() {
		#expect(throws: Defaults.PersistenceError.noPreferencesFolder) {
			_ = try PreferencesLocation.folder(environment: [:])
		}
		#expect(throws: Defaults.PersistenceError.noPreferencesFolder) {
			_ = try PreferencesLocation.folder(environment: ["XDG_CONFIG_HOME": "relative/path"])
		}
		#expect((try? PreferencesLocation.folder(environment: ["HOME": "/home/x"]))?.path == "/home/x/.config")
		#expect((try? PreferencesLocation.folder(environment: ["HOME": "/home/x", "XDG_CONFIG_HOME": "/cfg"]))?.path == "/cfg")
	}

	@Test func aProcessWithoutHomeRefusesToWriteToTheRoot() throws {
		let name = "defaults-tests.nohome.\(UUID().uuidString)"
		var environment = ProcessInfo.processInfo.environment
		environment["HOME"] = nil
		environment["XDG_CONFIG_HOME"] = nil
		let result = try HelperProcess.run(["write", name, "key", "1", "flush"], environment: environment.merging(["XDG_CONFIG_HOME": ""]) { $1 })
		#expect(result.status != 0, "the explicit flush reports the error")
		#expect(!FileManager.default.fileExists(atPath: "/.config/\(name).plist"))
	}
}
