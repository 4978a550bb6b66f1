import Foundation
@testable import Defaults

/// Where every test's preference files go: a temporary folder, never the user's `~/.config`.
enum TestEnvironment {
	static let configHome: URL = {
		let folder = FileManager.default.temporaryDirectory
			.appendingPathComponent("defaults-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)", isDirectory: true)
		try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
		setenv("XDG_CONFIG_HOME", folder.path, 1)
		return folder
	}()
}

/// A uniquely named suite that removes its domain and file when the test ends.
final class TestSuite: @unchecked Sendable {
	let name: String
	let defaults: UserDefaults

	init(_ label: String = #function) {
		_ = TestEnvironment.configHome
		let sanitized = label.filter { $0.isLetter || $0.isNumber }
		name = "defaults-tests.\(sanitized).\(UUID().uuidString)"
		defaults = UserDefaults(suiteName: name)!
	}

	deinit {
		defaults.removePersistentDomain(forName: name)
		try? FileManager.default.removeItem(at: fileURL)
	}

	var fileURL: URL {
		TestEnvironment.configHome.appendingPathComponent("\(name).plist")
	}

	/// A key name no other test uses: registered defaults are process-wide on Linux.
	func keyName(_ base: String = "key") -> String {
		"\(base)_\(UUID().uuidString.prefix(8))"
	}

	/**
	Saves the suite and makes Foundation read it back from the file, as a new process would.

	Foundation re-reads a suite's file on `synchronize()` when its modification
	date changed; the date is moved forward to guarantee that.
	*/
	func reloadedFromDisk() -> UserDefaults {
		defaults.synchronize()
		let later = Date().addingTimeInterval(60)
		try? FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: fileURL.path)
		let fresh = UserDefaults(suiteName: name)!
		fresh.synchronize()
		return fresh
	}

	/// The stored object, as raw `UserDefaults` returns it.
	func raw(_ key: String) -> Any? {
		defaults.object(forKey: key)
	}
}

/// Runs `body` and returns the diagnostics it reported.
func diagnostics(_ body: () throws -> Void) rethrows -> [Defaults.Diagnostic] {
	try DiagnosticReporter.capturing(body).1
}
