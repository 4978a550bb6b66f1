import DefaultsTestSupport
import Foundation
@testable import Defaults

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
		try? Defaults.flush(suite: defaults)
		// Not `removePersistentDomain`: it makes Foundation write the file itself.
		for key in defaults.dictionaryRepresentation().keys {
			defaults.removeObject(forKey: key)
		}

		TestEnvironment.removeFiles(ofSuite: name)
	}

	var fileURL: URL {
		TestEnvironment.fileURL(ofSuite: name)
	}

	/// A key name no other test uses: registered defaults are process-wide on Linux.
	func keyName(_ base: String = "key") -> String {
		"\(base)_\(UUID().uuidString.prefix(8))"
	}

	/**
	A fresh suite object holding what Foundation reads from this suite's file in
	a new process: the suite is flushed, a child process loads the file with
	`UserDefaults(suiteName:)` and hands its values back.
	*/
	func reloadedFromDisk() -> UserDefaults {
		let domain = try! domainReadByAnotherProcess()
		let fresh = UserDefaults(suiteName: "\(name).reloaded.\(UUID().uuidString)")!
		fresh.setVolatileDomain(domain, forName: UserDefaults.argumentDomain)
		return fresh
	}

	/// The stored object, as raw `UserDefaults` returns it once the library's writes are flushed (the interop terms).
	func raw(_ key: String) -> Any? {
		try? Defaults.flush(suite: defaults)
		return defaults.object(forKey: key)
	}
}

/// Runs `body` and returns the diagnostics it reported.
func diagnostics(_ body: () throws -> Void) rethrows -> [Defaults.Diagnostic] {
	try DiagnosticReporter.capturing(body).1
}
