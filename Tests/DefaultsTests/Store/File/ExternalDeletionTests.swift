import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

@Suite("Another process deletes the suite file")
struct ExternalDeletionTests {
	/// The two ways a user deletes a suite: `rm` on its file, and the `defaults` tool.
	static let deleters: [String] = ["rm", "defaults delete"]

	private static func delete(_ suite: TestSuite, with deleter: String) throws {
		if deleter == "rm" {
			#expect(try HelperProcess.run(["delete-file", suite.name]).status == 0)
		} else {
			var environment = ProcessInfo.processInfo.environment
			environment["XDG_CONFIG_HOME"] = TestEnvironment.configHome.path
			#expect(try ChildProcess.run("defaults", ["delete", suite.name], environment: environment).status == 0)
		}
	}

	@Test(arguments: deleters)
	func everyKeyChangesToAbsentAndNothingComesBack(_ deleter: String) throws {
		let suite = TestSuite()
		let number = Defaults.Key<Int>(suite.keyName("number"), default: 10, suite: suite.defaults)
		let text = Defaults.Key<String>(suite.keyName("text"), default: "default", suite: suite.defaults)
		Defaults[number] = 1
		Defaults[text] = "stored"
		try Defaults.flush(suite: suite.defaults)

		let numberChanges = Recorder<(old: Int, new: Int, at: Date)>()
		let textChanges = Recorder<(old: String, new: String)>()
		let observations = [
			Defaults.observe(number, options: []) { numberChanges.append(($0.oldValue, $0.newValue, Date())) } as any Defaults.Observation,
			Defaults.observe(text, options: []) { textChanges.append(($0.oldValue, $0.newValue)) },
		]
		defer { observations.forEach { $0.invalidate() } }

		let deleting = Date()
		try Self.delete(suite, with: deleter)
		#expect(!FileManager.default.fileExists(atPath: suite.fileURL.path))

		#expect(suite.wait(timeout: 2) { numberChanges.count > 0 && textChanges.count > 0 }, "the observers hear the deletion")
		let numberChange = try #require(numberChanges.values.first)
		#expect(numberChange.old == 1 && numberChange.new == 10)
		#expect(textChanges.values.first.map { [$0.old, $0.new] } == ["stored", "default"])
		print("measured: deletion by \(deleter) seen by the observer \(Int(numberChange.at.timeIntervalSince(deleting) * 1000)) ms after the deleting process started")
		#expect(Defaults[number] == 10, "reads return the default")
		#expect(Defaults[text] == "default")
		#expect(!suite.defaults.hasKey(number))

		let later = Defaults.Key<Int>(suite.keyName("later"), default: 0, suite: suite.defaults)
		Defaults[later] = 3
		try Defaults.flush(suite: suite.defaults)
		let contents = try #require(suite.fileContents())
		#expect(contents.keys.sorted() == [later.name], "the next flush does not bring the deleted values back")
		#expect(try suite.domainReadByAnotherProcess()[number.name] == nil)
	}

	@Test func aChangeNotYetWrittenWhenTheFileIsDeletedSurvives() throws {
		let suite = TestSuite()
		let fileSystem = SwitchableFileSystem()
		Suite.install(fileSystem, for: suite.defaults)
		let deletedKey = Defaults.Key<Int>(suite.keyName("deleted"), default: 0, suite: suite.defaults)
		let pendingKey = Defaults.Key<Int>(suite.keyName("pending"), default: 0, suite: suite.defaults)
		Defaults[deletedKey] = 1
		try Defaults.flush(suite: suite.defaults)

		// The change cannot reach the file yet, as when the deletion lands inside the coalescing window.
		fileSystem.failsWrites = true
		Defaults[pendingKey] = 5
		#expect(throws: Defaults.PersistenceError.self) { try Defaults.flush(suite: suite.defaults) }

		let changes = Recorder<Int>()
		let observation = Defaults.observe(deletedKey, options: []) { changes.append($0.newValue) }
		defer { observation.invalidate() }
		#expect(try HelperProcess.run(["delete-file", suite.name]).status == 0)
		#expect(suite.wait(timeout: 2) { changes.count > 0 })
		#expect(Defaults[deletedKey] == 0)
		#expect(Defaults[pendingKey] == 5, "the deletion does not undo a write this process made and has not written yet")

		fileSystem.failsWrites = false
		try Defaults.flush(suite: suite.defaults)
		let contents = try #require(suite.fileContents())
		#expect(contents[pendingKey.name] as? Int == 5, "the pending write reaches the new file")
		#expect(contents[deletedKey.name] == nil, "the deleted value does not")
	}
}
