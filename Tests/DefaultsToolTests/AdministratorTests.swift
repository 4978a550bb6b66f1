import Foundation
import Testing

/// The tool and an administrator's files: `read --show-origin`, refused writes of forced keys, and writing the system-wide file itself.
@Suite("defaults and the settings an administrator manages")
struct AdministratorTests {
	/// A sandbox whose system configuration folder (`$XDG_CONFIG_DIRS`) is a folder of its own.
	final class ManagedSandbox: @unchecked Sendable {
		let sandbox = ToolSandbox()
		var systemFolder: URL { sandbox.folder.appendingPathComponent("xdg-system", isDirectory: true) }
		var forcedFolder: URL { systemFolder.appendingPathComponent("forced-defaults", isDirectory: true) }
		var systemWideFile: URL { systemFolder.appendingPathComponent("\(sandbox.domain).plist") }
		var forcedFile: URL { forcedFolder.appendingPathComponent("\(sandbox.domain).plist") }

		init() throws {
			try FileManager.default.createDirectory(at: forcedFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
		}

		var environment: [String: String] {
			var environment = sandbox.environment
			environment["XDG_CONFIG_DIRS"] = systemFolder.path
			return environment
		}

		func run(_ arguments: String...) throws -> (status: Int32, output: String, errorOutput: String) {
			let result = try sandbox.run(arguments, environment: environment)
			return (result.status, result.output, result.errorOutput)
		}

		func install(_ values: [String: Any], at file: URL) throws {
			let data = try PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0)
			try data.write(to: file, options: .atomic)
			chmod(file.path, 0o644)
		}
	}

	private static let isRoot = getuid() == 0

	@Test("read --show-origin names the layer and the file of each value, as a program sees them", .enabled(if: isRoot))
	func showOrigin() throws {
		let managed = try ManagedSandbox()
		let domain = managed.sandbox.domain
		try managed.install(["proxy": "http://proxy.internal", "volume": 3], at: managed.forcedFile)
		try managed.install(["volume": 5, "channel": "stable", "theme": "dark"], at: managed.systemWideFile)
		#expect(try managed.run("write", domain, "theme", "light").status == 0)
		let globalKey = "ToolAdministratorTests-\(UUID().uuidString)"
		#expect(try managed.run("write", "-g", globalKey, "-int", "1").status == 0)
		defer { _ = try? managed.run("delete", "-g", globalKey) }

		let userFile = managed.sandbox.fileURL.path
		#expect(try managed.run("read", domain, "proxy", "--show-origin").output == "forced\t\(managed.forcedFile.path)\thttp://proxy.internal\n")
		#expect(try managed.run("read", domain, "volume", "--show-origin").output == "forced\t\(managed.forcedFile.path)\t3\n")
		#expect(try managed.run("read", domain, "channel", "--show-origin").output == "system-wide\t\(managed.systemWideFile.path)\tstable\n")
		#expect(try managed.run("read", domain, "theme", "--show-origin").output == "stored\t\(userFile)\tlight\n")
		let global = try managed.run("read", domain, globalKey, "--show-origin")
		#expect(global.output.hasPrefix("global-domain\t") && global.output.hasSuffix(".GlobalPreferences.plist\t1\n"))

		let listing = try managed.run("read", domain, "--show-origin").output.split(separator: "\n").map(String.init)
		#expect(listing.contains("forced\t\(managed.forcedFile.path)\tproxy = \"http://proxy.internal\""))
		#expect(listing.contains("system-wide\t\(managed.systemWideFile.path)\tchannel = stable"))
		#expect(listing.contains("stored\t\(userFile)\ttheme = light"))

		let json = try #require(try managed.sandbox.json(managed.run("read", domain, "volume", "--show-origin", "--json").output) as? [String: Any])
		#expect(json["origin"] as? String == "forced")
		#expect(json["file"] as? String == managed.forcedFile.path)
		#expect(json["value"] as? Int == 3)

		// Without the option, read shows the user's own file, as macOS's tool does.
		#expect(try managed.run("read", domain, "channel").status == 1)
		let missing = try managed.run("read", domain, "nowhere", "--show-origin")
		#expect(missing.status == 1 && missing.output.isEmpty && missing.errorOutput.contains("'nowhere'"))
	}

	@Test("writing a forced key fails with exit 1 and one line naming the file; nothing is written", .enabled(if: isRoot))
	func forcedWriteFails() throws {
		let managed = try ManagedSandbox()
		let domain = managed.sandbox.domain
		try managed.install(["proxy": "http://proxy.internal"], at: managed.forcedFile)
		#expect(try managed.run("write", domain, "other", "kept").status == 0)

		for arguments in [["write", domain, "proxy", "mine"], ["write", domain, "proxy", "-array-add", "x"], ["write", domain, "{ proxy = mine; other = changed; }"]] {
			let result = try managed.sandbox.run(arguments, environment: managed.environment)
			#expect(result.status == 1, "\(arguments)")
			#expect(result.output.isEmpty)
			#expect(result.errorOutput.split(separator: "\n").count == 1)
			#expect(result.errorOutput.hasPrefix("defaults: key 'proxy' of domain '\(domain)' is forced"))
			#expect(result.errorOutput.contains(managed.forcedFile.path))
		}

		let contents = try managed.sandbox.fileContents()
		#expect(contents["proxy"] == nil)
		#expect(contents["other"] as? String == "kept")
	}

	@Test("a forced file that a user could change forces nothing: the tool says why and writes")
	func untrustedForcedFile() throws {
		let managed = try ManagedSandbox()
		let domain = managed.sandbox.domain
		try managed.install(["proxy": "http://proxy.internal"], at: managed.forcedFile)
		chmod(managed.forcedFolder.path, 0o777)

		#expect(try managed.run("write", domain, "proxy", "mine").status == 0)
		let read = try managed.run("read", domain, "proxy", "--show-origin")
		#expect(read.output == "stored\t\(managed.sandbox.fileURL.path)\tmine\n")
		#expect(read.errorOutput == "defaults: \(managed.forcedFile.path) is not trusted to force values: its folder can be written by users other than root (mode 777); it is ignored, as programs ignore it\n" || !Self.isRoot)
	}

	@Test("writing the system-wide file by its path makes a file every user can read, and programs read it as system-wide")
	func writingTheSystemWideFile() throws {
		let managed = try ManagedSandbox()
		let domain = managed.sandbox.domain
		#expect(try managed.run("write", managed.systemWideFile.path, "channel", "beta").status == 0)
		var info = stat()
		#expect(stat(managed.systemWideFile.path, &info) == 0)
		#expect(info.st_mode & 0o777 == 0o644, "every user's programs read it")
		#expect(try managed.run("read", domain, "channel", "--show-origin").output == "system-wide\t\(managed.systemWideFile.path)\tbeta\n")

		// A user's own file stays private.
		#expect(try managed.run("write", domain, "theme", "dark").status == 0)
		#expect(stat(managed.sandbox.fileURL.path, &info) == 0)
		#expect(info.st_mode & 0o777 == 0o600)
		// An existing system file keeps the permissions the administrator gave it.
		chmod(managed.systemWideFile.path, 0o640)
		#expect(try managed.run("write", managed.systemWideFile.path, "channel", "stable").status == 0)
		#expect(stat(managed.systemWideFile.path, &info) == 0)
		#expect(info.st_mode & 0o777 == 0o640)
	}
}

extension AdministratorTests {
	@Test("a user's own file stays private even when the preferences folder is also listed as a system folder")
	func preferencesFolderListedAsSystemFolder() throws {
		let sandbox = ToolSandbox()
		var environment = sandbox.environment
		environment["XDG_CONFIG_DIRS"] = sandbox.folder.path
		#expect(try sandbox.run(["write", sandbox.domain, "key", "value"], environment: environment).status == 0)
		var info = stat()
		#expect(stat(sandbox.fileURL.path, &info) == 0)
		#expect(info.st_mode & 0o777 == 0o600)
	}
}
