import Foundation
import Testing

/// The tool never crashes on a binary property list holding a kind no setting holds (a set): the file is refused with a one-line reason.
@Suite("defaults and files holding kinds no setting holds")
struct ForeignKindsToolTests {
	/// `{"k": set of 1}`, the 53 bytes that crashed every reader before issue 38.
	static let fileHoldingASet = Data(base64Encoded: "YnBsaXN0MDDRAQJRa8EDEAEICw0PAAAAAAAAAQEAAAAAAAAABAAAAAAAAAAAAAAAAAAAABE=")!

	/// A sandbox with a system configuration folder of its own, so the file can be every layer.
	private static func sandbox() throws -> (ToolSandbox, environment: [String: String], system: URL) {
		let sandbox = ToolSandbox()
		let system = sandbox.folder.appendingPathComponent("xdg-system", isDirectory: true)
		try FileManager.default.createDirectory(at: system.appendingPathComponent("forced-defaults"), withIntermediateDirectories: true)
		var environment = sandbox.environment
		environment["XDG_CONFIG_DIRS"] = system.path
		return (sandbox, environment, system)
	}

	/// The command ended normally, with no reason or a one-line one.
	private static func expectNoCrash(_ result: (status: Int32, errorOutput: String), _ command: String) {
		#expect(result.status == 0 || result.status == 1, "\(command): ended with \(result.status): \(result.errorOutput)")
		#expect(result.errorOutput.split(separator: "\n").count <= 1, "\(command): \(result.errorOutput)")
	}

	@Test("as the domain's file: read, read --show-origin, find and export refuse it in one line")
	func asTheDomainsFile() throws {
		let (sandbox, environment, _) = try Self.sandbox()
		#expect(Self.fileHoldingASet.count == 53)
		try Self.fileHoldingASet.write(to: sandbox.fileURL)
		for arguments in [["read", sandbox.domain], ["read", sandbox.domain, "k", "--show-origin"], ["find", "k"], ["export", sandbox.domain, "-"]] {
			let result = try sandbox.run(arguments, environment: environment)
			Self.expectNoCrash((result.status, result.errorOutput), arguments.joined(separator: " "))
		}

		let read = try sandbox.run(["read", sandbox.domain], environment: environment)
		#expect(read.status == 1 && read.errorOutput.contains("not a readable property list"))
		#expect(try Data(contentsOf: sandbox.fileURL) == Self.fileHoldingASet, "nothing stored is lost")
	}

	@Test("as the global domain or an administrator's file: every command of another domain still works")
	func asAnotherLayer() throws {
		let (sandbox, environment, system) = try Self.sandbox()
		try sandbox.succeed("write", sandbox.domain, "k", "mine")
		let places = [
			sandbox.folder.appendingPathComponent(".GlobalPreferences.plist"),
			system.appendingPathComponent("\(sandbox.domain).plist"),
			system.appendingPathComponent("forced-defaults/\(sandbox.domain).plist"),
		]
		for place in places {
			try Self.fileHoldingASet.write(to: place)
			chmod(place.path, 0o644)
			for arguments in [["read", sandbox.domain, "k"], ["read", sandbox.domain, "k", "--show-origin"], ["find", "mine"], ["read", "-g"]] {
				let result = try sandbox.run(arguments, environment: environment)
				Self.expectNoCrash((result.status, result.errorOutput), "\(place.lastPathComponent): \(arguments.joined(separator: " "))")
			}

			let read = try sandbox.run(["read", sandbox.domain, "k"], environment: environment)
			#expect(read.status == 0 && read.output == "mine\n", "\(place.path)")
			try FileManager.default.removeItem(at: place)
		}
	}

	@Test("import of the file fails in one line and changes nothing")
	func importing() throws {
		let (sandbox, environment, _) = try Self.sandbox()
		try sandbox.succeed("write", sandbox.domain, "k", "mine")
		let file = sandbox.folder.appendingPathComponent("settings.plist")
		try Self.fileHoldingASet.write(to: file)
		let result = try sandbox.run(["import", sandbox.domain, file.path], environment: environment)
		#expect(result.status == 1)
		#expect(result.errorOutput.split(separator: "\n").count == 1, "\(result.errorOutput)")
		#expect(try sandbox.succeed("read", sandbox.domain, "k") == "mine\n")
	}
}
