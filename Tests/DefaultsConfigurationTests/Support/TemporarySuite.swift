#if Configuration
import Defaults
import DefaultsTestSupport
import Foundation
import Testing

/// A uniquely named suite in the test process's temporary folder, removed with its file when the test ends.
final class TemporarySuite: @unchecked Sendable {
	let name: String
	let defaults: UserDefaults

	init(_ label: String = #function) {
		_ = TestEnvironment.configHome
		name = "defaults-config-tests.\(label.filter { $0.isLetter || $0.isNumber }).\(UUID().uuidString)"
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

	/// Runs the package's `defaults` tool on this suite's folder as another process and requires it to succeed.
	func runTool(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws {
		var environment = ProcessInfo.processInfo.environment
		environment["XDG_CONFIG_HOME"] = TestEnvironment.configHome.path
		let result = try ChildProcess.run("defaults", arguments, environment: environment)
		#expect(result.status == 0, "defaults \(arguments.joined(separator: " ")): \(result.errorOutput)", sourceLocation: sourceLocation)
	}
}

/// Runs `body`, giving up after `timeout`: `nil` when it did not finish, so a missed change fails the test instead of hanging it.
func withDeadline<Result: Sendable>(
	_ timeout: Duration = .seconds(20),
	_ body: @escaping @Sendable () async throws -> Result
) async throws -> Result? {
	try await withThrowingTaskGroup(of: Result?.self) { group in
		group.addTask { try await body() }
		group.addTask {
			try await Task.sleep(for: timeout)
			return nil
		}

		defer { group.cancelAll() }
		return try await group.next() ?? nil
	}
}
#endif

#if Configuration
/// Whether `condition` holds within `timeout`, checked every few milliseconds: for changes another process makes.
func eventually(timeout: Duration = .seconds(20), _ condition: () throws -> Bool) async throws -> Bool {
	let deadline = ContinuousClock.now + timeout
	while try !condition() {
		if ContinuousClock.now >= deadline {
			return false
		}

		// Not `Thread.sleep`: that would hold one of the few threads other tests run on.
		try await Task.sleep(for: .milliseconds(2))
	}

	return true
}
#endif
