import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// Forced values and system-wide defaults an administrator installs in the system configuration folder (`$XDG_CONFIG_DIRS`).
@Suite("Settings an administrator manages")
struct AdministratorLayerTests {
	/// A suite with the administrator's files of its domain, removed at the end.
	final class ManagedSuite {
		let suite = TestSuite()

		var systemWideFile: URL {
			TestEnvironment.systemFolder.appendingPathComponent("\(suite.name).plist")
		}

		var forcedFile: URL {
			TestEnvironment.systemFolder.appendingPathComponent(AdministratorFiles.forcedFolderName).appendingPathComponent("\(suite.name).plist")
		}

		deinit {
			try? FileManager.default.removeItem(at: systemWideFile)
			try? FileManager.default.removeItem(at: forcedFile)
		}

		/// Writes `values` to `file` atomically, as `sudo defaults write` or a package manager would.
		func install(_ values: [String: Any], at file: URL) throws {
			let data = try PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0)
			try data.write(to: file, options: .atomic)
		}
	}

	private static let isRoot = getuid() == 0

	@Test("a write of a forced key is refused: the value stays, observers hear nothing, one diagnostic names the key and the file", .enabled(if: isRoot))
	func forcedWriteIsRefused() throws {
		let managed = ManagedSuite()
		let name = managed.suite.keyName("forced")
		try managed.install([name: "administrator"], at: managed.forcedFile)
		let key = Defaults.Key<String>(name, default: "app", suite: managed.suite.defaults)
		let heard = Recorder<String>()
		let observation = Defaults.observe(key, options: [.prior]) { heard.append($0.newValue) }
		defer { observation.invalidate() }

		let reported = diagnostics {
			Defaults[key] = "user"
			key.reset()
		}

		#expect(Defaults[key] == "administrator")
		#expect(heard.values.isEmpty)
		#expect(reported.map(\.kind) == [.forcedValue, .forcedValue])
		#expect(reported.allSatisfy { $0.key == name && $0.message.contains(managed.forcedFile.path) })
		try Defaults.flush(suite: managed.suite.defaults)
		#expect(managed.suite.fileContents()?[name] == nil, "nothing reached the user's file")
		#expect(key.origin == .forced(file: managed.forcedFile))
	}

	@Test("reset returns the key to the administrator's system-wide value, not the app's default")
	func resetReturnsToTheSystemWideValue() throws {
		let managed = ManagedSuite()
		let name = managed.suite.keyName("system")
		try managed.install([name: 7], at: managed.systemWideFile)
		let key = Defaults.Key<Int>(name, default: 1, suite: managed.suite.defaults)
		#expect(Defaults[key] == 7)
		#expect(key.origin == .systemWide(file: managed.systemWideFile))
		Defaults[key] = 9
		#expect(Defaults[key] == 9)
		#expect(key.origin == .stored(file: managed.suite.fileURL))
		key.reset()
		#expect(Defaults[key] == 7)
		#expect(!key.isForced)
	}

	@Test("installing, editing and removing the administrator's files reaches observers; a key no longer forced is writable again", .enabled(if: isRoot))
	func liveChanges() async throws {
		let managed = ManagedSuite()
		let name = managed.suite.keyName("live")
		let key = Defaults.Key<String>(name, default: "app", suite: managed.suite.defaults)
		let heard = Recorder<String>()
		let observation = Defaults.observe(key, options: []) { heard.append($0.newValue) }
		defer { observation.invalidate() }

		try managed.install([name: "system"], at: managed.systemWideFile)
		#expect(await eventually { Defaults[key] == "system" })
		try managed.install([name: "system 2"], at: managed.systemWideFile)
		#expect(await eventually { Defaults[key] == "system 2" })
		try managed.install([name: "forced"], at: managed.forcedFile)
		#expect(await eventually { key.isForced && Defaults[key] == "forced" })
		try FileManager.default.removeItem(at: managed.forcedFile)
		#expect(await eventually { !key.isForced && Defaults[key] == "system 2" })
		Defaults[key] = "user"
		#expect(Defaults[key] == "user")
		key.reset()
		#expect(Defaults[key] == "system 2", "reset returns to the administrator's value")
		try FileManager.default.removeItem(at: managed.systemWideFile)
		#expect(await eventually { Defaults[key] == "app" })
		#expect(await eventually { heard.values == ["system", "system 2", "forced", "system 2", "user", "system 2", "app"] })
	}

	@Test("forced values from a file a user other than root can change are ignored, with one diagnostic", .enabled(if: isRoot), arguments: ["owner", "mode"])
	func untrustedForcedFileIsIgnored(_ flaw: String) throws {
		let managed = ManagedSuite()
		let name = managed.suite.keyName("untrusted")
		try managed.install([name: "forced"], at: managed.forcedFile)
		if flaw == "owner" {
			#expect(chown(managed.forcedFile.path, 65534, 65534) == 0)
		} else {
			#expect(chmod(managed.forcedFile.path, 0o666) == 0)
		}

		let forcedPath = managed.forcedFile.path
		let (key, reported) = DiagnosticReporter.claiming(where: { $0.message.contains(forcedPath) }) {
			let key = Defaults.Key<String>(name, default: "app", suite: managed.suite.defaults)
			#expect(Defaults[key] == "app")
			return key
		}

		#expect(!key.isForced)
		#expect(reported.map(\.kind) == [.ignoredAdministratorFile])
		Defaults[key] = "user"
		#expect(Defaults[key] == "user")
	}

	@Test("a FIFO or an unparsable system file is ignored with a diagnostic, never a hang", arguments: ["fifo", "garbage"])
	func hostileSystemFilesAreIgnored(_ kind: String) throws {
		let managed = ManagedSuite()
		let name = managed.suite.keyName("hostile")
		if kind == "fifo" {
			#expect(mkfifo(managed.systemWideFile.path, 0o644) == 0)
		} else {
			try Data("not a property list".utf8).write(to: managed.systemWideFile)
		}

		let systemPath = managed.systemWideFile.path
		let (key, reported) = DiagnosticReporter.claiming(where: { $0.message.contains(systemPath) }) {
			let key = Defaults.Key<String>(name, default: "app", suite: managed.suite.defaults)
			#expect(Defaults[key] == "app")
			return key
		}

		#expect(reported.map(\.kind) == [.ignoredAdministratorFile])
		#expect(key.origin == .registeredDefault)
	}

	@Test("export leaves out the administrator's values: they are not the user's")
	func exportLeavesOutAdministratorValues() throws {
		let managed = ManagedSuite()
		let name = managed.suite.keyName("exported")
		try managed.install([name: "system"], at: managed.systemWideFile)
		let key = Defaults.Key<String>(name, default: "app", suite: managed.suite.defaults)
		#expect(Defaults[key] == "system")
		let exported = try Defaults.exportSettings(suite: managed.suite.defaults)
		#expect(!String(decoding: exported, as: UTF8.self).contains(name))
	}
}

/// With the global domain's tests, which replace and remove its file: one at a time.
extension GlobalDomainTests {
	struct Case: CustomTestStringConvertible, Sendable {
		let layers: [String]
		let expected: String
		let origin: String
		var testDescription: String { "\(layers.joined(separator: " + ")) → \(expected)" }
	}

	/// Each row names the layers that hold a value (each holds its own name as the value) and what a read gives.
	static let precedence: [Case] = [
		Case(layers: ["registered"], expected: "registered", origin: "registeredDefault"),
		Case(layers: ["registered", "global"], expected: "global", origin: "globalDomain"),
		Case(layers: ["registered", "global", "systemWide"], expected: "systemWide", origin: "systemWide"),
		Case(layers: ["registered", "systemWide", "stored"], expected: "stored", origin: "stored"),
		Case(layers: ["registered", "global", "systemWide", "stored", "forced"], expected: "forced", origin: "forced"),
		Case(layers: ["registered", "forced"], expected: "forced", origin: "forced"),
	]

	@Test("each source wins over those below it, and the origin names it", .enabled(if: getuid() == 0), arguments: precedence)
	func precedenceAcrossSources(_ row: Case) throws {
		let managed = AdministratorLayerTests.ManagedSuite()
		let name = managed.suite.keyName("precedence")
		let globalFile = TestEnvironment.configHome.appendingPathComponent(".GlobalPreferences.plist")
		if row.layers.contains("systemWide") {
			try managed.install([name: "systemWide"], at: managed.systemWideFile)
		}
		if row.layers.contains("forced") {
			try managed.install([name: "forced"], at: managed.forcedFile)
		}
		if row.layers.contains("stored") {
			try managed.install([name: "stored"], at: managed.suite.fileURL)
		}
		if row.layers.contains("global") {
			try GlobalDomainFile.adding([name: "global"], to: globalFile)
		}
		defer { try? GlobalDomainFile.removing([name], from: globalFile) }

		let key = Defaults.Key<String>(name, default: "registered", suite: managed.suite.defaults)
		if row.layers.contains("global") {
			#expect(managed.suite.wait(timeout: 10) { Defaults[key] != "registered" })
		}

		#expect(Defaults[key] == row.expected)
		#expect("\(key.origin)".hasPrefix(row.origin), "origin: \(key.origin)")
		#expect(key.isForced == row.layers.contains("forced"))
	}
}

/// Adds and removes keys of the shared global domain file, which other tests use too.
enum GlobalDomainFile {
	static func adding(_ values: [String: Any], to url: URL) throws {
		var contents = (try? PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil) as? [String: Any]) ?? [:]
		contents.merge(values) { $1 }
		try PropertyListSerialization.data(fromPropertyList: contents, format: .binary, options: 0).write(to: url, options: .atomic)
	}

	static func removing(_ names: [String], from url: URL) throws {
		guard var contents = try? PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil) as? [String: Any] else {
			return
		}

		for name in names {
			contents[name] = nil
		}
		try PropertyListSerialization.data(fromPropertyList: contents, format: .binary, options: 0).write(to: url, options: .atomic)
	}
}
