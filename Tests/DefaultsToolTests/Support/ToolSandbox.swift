import DefaultsTestSupport
import Foundation
import Testing

/**
A private preferences folder for one test, and the built `defaults` tool run
against it as a separate process.

Each sandbox has its own folder (so tests run in parallel) and removes it when
the test ends; nothing reaches the user's `~/.config`.
*/
final class ToolSandbox: @unchecked Sendable {
	let folder: URL
	/// A domain name no other test uses.
	let domain = "com.example.tool-tests.\(UUID().uuidString)"

	init() {
		folder = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-tool-tests-\(UUID().uuidString)", isDirectory: true)
		try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
	}

	deinit {
		try? FileManager.default.removeItem(at: folder)
	}

	var environment: [String: String] {
		var environment = ProcessInfo.processInfo.environment
		environment["XDG_CONFIG_HOME"] = folder.path
		return environment
	}

	/// Runs `defaults` with `arguments` to completion.
	@discardableResult
	func run(_ arguments: String..., input: Data? = nil) throws -> ChildProcess.Result {
		try run(arguments, input: input)
	}

	@discardableResult
	func run(_ arguments: [String], input: Data? = nil, environment: [String: String]? = nil) throws -> ChildProcess.Result {
		try ChildProcess.run("defaults", arguments, environment: environment ?? self.environment, input: input)
	}

	/// Runs `defaults` and requires it to succeed; returns its standard output.
	@discardableResult
	func succeed(_ arguments: String..., input: Data? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
		try succeed(arguments, input: input, sourceLocation: sourceLocation)
	}

	@discardableResult
	func succeed(_ arguments: [String], input: Data? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
		let result = try run(arguments, input: input)
		#expect(result.status == 0, "defaults \(arguments.joined(separator: " ")) failed: \(result.errorOutput)", sourceLocation: sourceLocation)
		#expect(result.errorOutput.isEmpty, sourceLocation: sourceLocation)
		return result.output
	}

	/// Runs `defaults`, requires it to fail with a one-line reason, and returns that line.
	func fail(_ arguments: String..., input: Data? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
		try fail(arguments, input: input, sourceLocation: sourceLocation)
	}

	func fail(_ arguments: [String], input: Data? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
		let result = try run(arguments, input: input)
		#expect(result.status != 0, "defaults \(arguments.joined(separator: " ")) succeeded", sourceLocation: sourceLocation)
		#expect(result.output.isEmpty, sourceLocation: sourceLocation)
		let lines = result.errorOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
		#expect(lines.count == 1, "expected one line, got: \(result.errorOutput)", sourceLocation: sourceLocation)
		#expect(result.errorOutput.hasPrefix("defaults: "), sourceLocation: sourceLocation)
		return result.errorOutput.trimmingCharacters(in: .newlines)
	}

	/// Starts `defaults` without waiting for it (for `watch`).
	func start(_ arguments: String...) throws -> ChildProcess {
		try ChildProcess("defaults", arguments, environment: environment)
	}

	func fileURL(of domain: String) -> URL {
		folder.appendingPathComponent("\(domain).plist")
	}

	var fileURL: URL {
		fileURL(of: domain)
	}

	/// The domain's file as Foundation parses it.
	func fileContents(of domain: String? = nil) throws -> [String: Any] {
		let data = try Data(contentsOf: fileURL(of: domain ?? self.domain))
		return try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
	}

	/// Any property-list file, as Foundation parses it (`nil` when missing or unreadable).
	func plist(at path: String) -> NSDictionary? {
		guard let data = FileManager.default.contents(atPath: path) else {
			return nil
		}

		return try? PropertyListSerialization.propertyList(from: data, format: nil) as? NSDictionary
	}

	/// Makes a file of `size` bytes that takes no space: a hole, made with `ftruncate`.
	static func makeSparseFile(at url: URL, size: Int64) throws {
		let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
		try #require(descriptor >= 0)
		defer { close(descriptor) }
		try #require(ftruncate(descriptor, off_t(size)) == 0)
	}

	/// Parses the JSON the tool printed.
	func json(_ text: String) throws -> Any {
		try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
	}
}
