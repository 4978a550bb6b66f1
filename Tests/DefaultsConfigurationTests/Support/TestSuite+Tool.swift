#if Configuration
import Defaults
import DefaultsTestSupport
import Foundation
import Testing

extension TestSuite {
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
