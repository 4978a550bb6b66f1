import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

@Suite("Where the preferences folder is: relative paths are refused")
struct PreferencesLocationTests {
	@Test(arguments: ["relative", "./home", "home/user", "~/x"])
	func aRelativeHomeIsRefusedWithTheReason(_ home: String) {
		#expect(throws: Defaults.PersistenceError.relativePreferencesFolder(variable: "HOME", path: home)) {
			_ = try PreferencesLocation.folder(environment: ["HOME": home])
		}
		#expect(throws: Defaults.PersistenceError.relativePreferencesFolder(variable: "HOME", path: home)) {
			_ = try PreferencesLocation.folder(environment: ["HOME": home, "XDG_CONFIG_HOME": "also/relative"])
		}
		#expect((try? PreferencesLocation.folder(environment: ["HOME": home, "XDG_CONFIG_HOME": "/cfg"]))?.path == "/cfg", "an absolute XDG_CONFIG_HOME is enough")
		#expect(Defaults.PersistenceError.relativePreferencesFolder(variable: "HOME", path: home).description.contains("relative path '\(home)'"))
	}

	@Test func aProcessWithARelativeHomeWritesNothingBelowItsWorkingDirectory() throws {
		let workingDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-tests-cwd-\(UUID().uuidString)", isDirectory: true)
		try FileManager.default.createDirectory(at: workingDirectory, withIntermediateDirectories: true)
		defer { try? FileManager.default.removeItem(at: workingDirectory) }

		var environment = ProcessInfo.processInfo.environment
		environment["HOME"] = "relative-home"
		// Empty, so not absolute: the folder comes from HOME.
		environment["XDG_CONFIG_HOME"] = ""
		let suite = "defaults-tests.relative-home.\(UUID().uuidString)"
		let result = try HelperProcess.run(["write-from", workingDirectory.path, suite, "key", "1"], environment: environment)

		#expect(result.status != 0)
		#expect(result.lines.first?.hasPrefix("error no preferences folder: HOME is the relative path 'relative-home'") == true, "\(result.lines)")
		let created = (FileManager.default.enumerator(atPath: workingDirectory.path)?.allObjects as? [String]) ?? []
		#expect(created.isEmpty, "nothing lands below the working directory: \(created)")
	}
}
