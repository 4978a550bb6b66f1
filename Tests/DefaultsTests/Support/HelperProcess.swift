import Foundation
import Testing
@testable import Defaults

/// Runs the `DefaultsTestHelper` executable as a separate process, with the tests' configuration folder.
final class HelperProcess: @unchecked Sendable {
	static let executable: URL = {
		let candidates = [
			Bundle.main.executableURL?.deletingLastPathComponent(),
			URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
		]
		for folder in candidates.compactMap({ $0 }) {
			let helper = folder.appendingPathComponent("DefaultsTestHelper")
			if FileManager.default.isExecutableFile(atPath: helper.path) {
				return helper
			}
		}

		fatalError("DefaultsTestHelper not found next to the test bundle; build with `swift build --build-tests`")
	}()

	let process = Process()
	private let output = Pipe()
	private let lock = NSLock()
	private var lines: [String] = []
	private var buffer = Data()

	init(_ arguments: [String], environment: [String: String]? = nil) throws {
		process.executableURL = Self.executable
		process.arguments = arguments
		var environment = environment ?? ProcessInfo.processInfo.environment
		environment["XDG_CONFIG_HOME"] = environment["XDG_CONFIG_HOME"] ?? TestEnvironment.configHome.path
		process.environment = environment
		process.standardOutput = output
		process.standardError = FileHandle.nullDevice
		output.fileHandleForReading.readabilityHandler = { [weak self] handle in
			self?.receive(handle.availableData)
		}
		try process.run()
	}

	/// Runs a helper to completion and returns its output lines.
	@discardableResult
	static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> (status: Int32, lines: [String]) {
		let helper = try HelperProcess(arguments, environment: environment)
		helper.process.waitUntilExit()
		helper.drain()
		return (helper.process.terminationStatus, helper.receivedLines)
	}

	var receivedLines: [String] {
		lock.withLock { lines }
	}

	/// Waits until a line satisfies `predicate` or `timeout` passes.
	func waitForLine(timeout: TimeInterval, where predicate: (String) -> Bool) -> String? {
		let deadline = Date().addingTimeInterval(timeout)
		while Date() < deadline {
			if let line = receivedLines.first(where: predicate) {
				return line
			}

			Thread.sleep(forTimeInterval: 0.002)
		}

		return receivedLines.first(where: predicate)
	}

	func kill() {
		Foundation.kill(process.processIdentifier, SIGKILL)
		process.waitUntilExit()
		drain()
	}

	func drain() {
		output.fileHandleForReading.readabilityHandler = nil
		receive(output.fileHandleForReading.readDataToEndOfFile())
	}

	private func receive(_ data: Data) {
		lock.withLock {
			buffer.append(data)
			while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
				lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
				buffer = Data(buffer[buffer.index(after: newline)...])
			}
		}
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
