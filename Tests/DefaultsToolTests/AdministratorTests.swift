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

/// Files the tool creates for an administrator, as `sudo` runs it: `$XDG_CONFIG_DIRS` dropped, or naming other folders.
extension AdministratorTests {
	/// What `$XDG_CONFIG_DIRS` holds when the tool runs: unset (as `sudo` leaves it), or a folder that is not where the file goes.
	enum SystemFolders: String, CaseIterable, CustomTestStringConvertible {
		case unset
		case elsewhere

		var testDescription: String {
			rawValue
		}
	}

	/// A folder outside the sandbox's preferences folder, as `/srv/app` or `/opt/app/etc` would be; removed when the test ends.
	final class OutsideFolder: @unchecked Sendable {
		let url = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-tool-tests-outside-\(UUID().uuidString)", isDirectory: true)
		var forcedFolder: URL { url.appendingPathComponent("forced-defaults", isDirectory: true) }

		init() throws {
			try FileManager.default.createDirectory(at: forcedFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
		}

		deinit {
			try? FileManager.default.removeItem(at: url)
		}
	}

	private static func mode(of path: String) -> mode_t? {
		var info = stat()
		return stat(path, &info) == 0 ? info.st_mode & 0o777 : nil
	}

	@Test(
		"a file the tool creates outside the user's preferences folder, forced-defaults included, is readable by every user whatever $XDG_CONFIG_DIRS says",
		arguments: SystemFolders.allCases
	)
	func newFilesOutsideThePreferencesFolder(_ systemFolders: SystemFolders) throws {
		let sandbox = ToolSandbox()
		let outside = try OutsideFolder()
		var environment = sandbox.environment
		switch systemFolders {
		case .unset:
			environment["XDG_CONFIG_DIRS"] = nil
		case .elsewhere:
			environment["XDG_CONFIG_DIRS"] = sandbox.folder.appendingPathComponent("xdg-elsewhere", isDirectory: true).path
		}

		func succeed(_ arguments: String..., input: Data? = nil) throws {
			let result = try sandbox.run(arguments, input: input, environment: environment)
			#expect(result.status == 0 && result.errorOutput.isEmpty, "defaults \(arguments.joined(separator: " ")): \(result.errorOutput)")
		}

		let domain = sandbox.domain
		let forced = outside.forcedFolder.appendingPathComponent("\(domain).plist").path
		let systemWide = outside.url.appendingPathComponent("\(domain).plist").path
		let byOption = outside.url.appendingPathComponent("by-option.plist").path
		let withoutExtension = outside.url.appendingPathComponent("without-extension").path
		let imported = outside.url.appendingPathComponent("imported.plist").path
		let literal = outside.url.appendingPathComponent("literal.plist").path
		try succeed("write", forced, "proxy", "http://proxy.internal:3128")
		try succeed("write", systemWide, "channel", "stable")
		try succeed("write", "--path", byOption, "channel", "-array-add", "beta")
		try succeed("write", withoutExtension, "channel", "stable")
		try succeed("import", imported, "-", input: Data(#"{"channel": "stable"}"#.utf8))
		try succeed("write", literal, "{ channel = stable; }")
		for path in [forced, systemWide, byOption, withoutExtension + ".plist", imported, literal] {
			#expect(Self.mode(of: path) == 0o644, "every user's programs read \(path)")
			#expect(sandbox.plist(at: path)?["channel"] != nil || path == forced, "\(path) holds what was written")
		}

		#expect(sandbox.plist(at: forced)?["proxy"] as? String == "http://proxy.internal:3128")

		// An existing file keeps the permissions it has, private ones too.
		chmod(systemWide, 0o600)
		try succeed("write", systemWide, "channel", "beta")
		#expect(Self.mode(of: systemWide) == 0o600)
		chmod(forced, 0o640)
		try succeed("write", forced, "proxy", "http://other.internal:3128")
		#expect(Self.mode(of: forced) == 0o640)
		#expect(sandbox.plist(at: forced)?["proxy"] as? String == "http://other.internal:3128")

		// No folder is made for a file given by its path (it would be private to its maker): the administrator creates it first.
		let missing = outside.url.appendingPathComponent("missing/forced-defaults/\(domain).plist").path
		for arguments in [["write", missing, "proxy", "http://proxy.internal:3128"], ["import", missing, "-"]] {
			let result = try sandbox.run(arguments, input: Data(#"{"proxy": "http://proxy.internal:3128"}"#.utf8), environment: environment)
			#expect(result.status == 1 && result.errorOutput == "defaults: cannot write \(missing): no such folder (create it first)\n", "\(arguments): \(result.errorOutput)")
		}

		#expect(!FileManager.default.fileExists(atPath: outside.url.appendingPathComponent("missing").path))

		// The user's own preferences stay private, by domain or by path.
		try succeed("write", domain, "theme", "dark")
		try succeed("write", sandbox.folder.appendingPathComponent("by-path.plist").path, "theme", "dark")
		#expect(Self.mode(of: sandbox.fileURL.path) == 0o600)
		#expect(Self.mode(of: sandbox.fileURL(of: "by-path").path) == 0o600)
	}
}
