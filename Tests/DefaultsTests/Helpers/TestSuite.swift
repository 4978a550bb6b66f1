import DefaultsTestSupport
import Foundation
@testable import Defaults

/// What this target's tests read of a suite: what another process, or raw `UserDefaults`, sees.
extension TestSuite {
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
