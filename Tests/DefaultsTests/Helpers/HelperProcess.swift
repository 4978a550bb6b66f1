import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// The `DefaultsTestHelper` executable, run as a separate process with the tests' configuration folder.
enum HelperProcess {
	static func start(_ arguments: [String], environment: [String: String]? = nil) throws -> ChildProcess {
		try ChildProcess("DefaultsTestHelper", arguments, environment: helperEnvironment(environment))
	}

	/// Runs a helper to completion and returns its exit status and output lines.
	@discardableResult
	static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> (status: Int32, lines: [String]) {
		let result = try ChildProcess.run("DefaultsTestHelper", arguments, environment: helperEnvironment(environment))
		return (result.status, result.lines)
	}

	private static func helperEnvironment(_ environment: [String: String]?) -> [String: String] {
		var environment = environment ?? ProcessInfo.processInfo.environment
		environment["XDG_CONFIG_HOME"] = environment["XDG_CONFIG_HOME"] ?? TestEnvironment.configHome.path
		return environment
	}
}

extension TestSuite {
	/// The suite as Foundation reads its file in a fresh process.
	func domainReadByAnotherProcess() throws -> [String: Any] {
		try Defaults.flush(suite: defaults)
		let result = try HelperProcess.run(["dump", name])
		let encoded = try #require(result.lines.first)
		let data = try #require(Data(base64Encoded: encoded))
		return try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
	}
}
