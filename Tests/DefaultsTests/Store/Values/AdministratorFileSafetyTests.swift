import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// Attacks on the administrator's files: races on the folders that decide whether a file may force values, folders the library must not create, files it cannot use.
@Suite("Settings an administrator manages: file safety")
struct AdministratorFileSafetyTests {
	private static let isRoot = getuid() == 0
	/// How many reads race the swapping folder: `DEFAULTS_ADMIN_RACE_READS=20000` for a longer run.
	private static let raceReads = TestEnvironment.count("DEFAULTS_ADMIN_RACE_READS", default: 2_000)

	/// A temporary folder, removed at the end.
	final class Scratch {
		let root = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-admin-safety-\(UUID().uuidString)", isDirectory: true)

		init() throws {
			try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
		}

		deinit {
			try? FileManager.default.removeItem(at: root)
		}

		func folder(_ path: String, owner: uid_t = 0) throws -> URL {
			let folder = root.appendingPathComponent(path, isDirectory: true)
			try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
			chown(folder.path, owner, owner)
			return folder
		}

		func install(_ values: [String: Any], at file: URL, owner: uid_t = 0) throws {
			try PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0).write(to: file, options: .atomic)
			chmod(file.path, 0o644)
			chown(file.path, owner, owner)
		}
	}

	@Test("a user who swaps a forced-defaults link between root's folder and their own never gets their file trusted", .enabled(if: isRoot))
	func swappedFolderIsNeverTrusted() throws {
		let scratch = try Scratch()
		let trusted = try scratch.folder("admin/forced-defaults")
		let users = try scratch.folder("user/forced-defaults", owner: 65534)
		try scratch.install(["proxy": "administrator"], at: trusted.appendingPathComponent("race.plist"))
		try scratch.install(["proxy": "user"], at: users.appendingPathComponent("race.plist"), owner: 65534)
		let system = try scratch.folder("user/xdg", owner: 65534)
		let link = system.appendingPathComponent(AdministratorFiles.forcedFolderName)
		let spare = system.appendingPathComponent("swap")
		try FileManager.default.createSymbolicLink(at: link, withDestinationURL: trusted)

		let stop = Locked(false)
		let swapper = Thread {
			var toUsers = true
			while !stop.withLock({ $0 }) {
				unlink(spare.path)
				symlink((toUsers ? users : trusted).path, spare.path)
				rename(spare.path, link.path)
				toUsers.toggle()
			}
		}
		swapper.start()
		defer { stop.withLock { $0 = true } }

		var trustedUsersFile = 0
		var sawAdministrator = 0
		for _ in 0..<Self.raceReads {
			let forced = AdministratorFiles.read(domain: "race", in: [system])[.forced]["proxy"]?.value
			if forced == .string("user") {
				trustedUsersFile += 1
			} else if forced == .string("administrator") {
				sawAdministrator += 1
			}
		}

		#expect(trustedUsersFile == 0)
		#expect(sawAdministrator > 0, "the race really ran over root's folder too")
	}

	@Test("the library creates no folder among the system folders, and hears files installed in folders made later", .enabled(if: isRoot))
	func systemFoldersAreNeverCreated() throws {
		let scratch = try Scratch()
		let system = scratch.root.appendingPathComponent("not-yet/xdg", isDirectory: true)
		let other = scratch.root.appendingPathComponent("never", isDirectory: true)
		var environment = TestEnvironment.environment
		environment["XDG_CONFIG_DIRS"] = "\(system.path):\(other.path)"
		let suite = TestSuite()
		let name = suite.keyName("late")
		let observer = try HelperProcess.start(["observe-managed", suite.name, name, "60"], environment: environment)
		defer { observer.kill() }
		#expect(observer.waitForLine(timeout: 20) { $0.hasPrefix("ready") } == "ready app registeredDefault")
		#expect(!FileManager.default.fileExists(atPath: scratch.root.appendingPathComponent("not-yet").path))
		#expect(!FileManager.default.fileExists(atPath: other.path))

		let forced = try scratch.folder("not-yet/xdg/forced-defaults")
		try scratch.install([name: "forced"], at: forced.appendingPathComponent("\(suite.name).plist"))
		#expect(observer.waitForLine(timeout: 20) { $0.hasPrefix("key ") } == "key forced forced forced")
	}

	@Test("a forced value that does not decode as the key's type gives the default and one diagnostic naming the forced file", .enabled(if: isRoot))
	func undecodableForcedValueNamesTheFile() throws {
		let managed = AdministratorLayerTests.ManagedSuite()
		let name = managed.suite.keyName("typed")
		try managed.install([name: 5], at: managed.forcedFile)
		let (value, reported) = DiagnosticReporter.claiming(where: { $0.key == name }) {
			Defaults[Defaults.Key<String>(name, default: "app", suite: managed.suite.defaults)]
		}

		#expect(value == "app")
		#expect(reported.count == 1)
		#expect(reported.first?.message.contains(managed.forcedFile.path) == true, "\(reported)")
	}

	@Test("a loop of symbolic links where a file should be is ignored with a diagnostic")
	func symbolicLinkLoopIsReported() throws {
		let scratch = try Scratch()
		let system = try scratch.folder("xdg")
		let file = system.appendingPathComponent("loop.plist")
		symlink(file.path, file.path)
		let layers = AdministratorFiles.read(domain: "loop", in: [system])
		#expect(layers.ignored[file]?.contains("loop of symbolic links") == true, "\(layers.ignored)")
	}
}
