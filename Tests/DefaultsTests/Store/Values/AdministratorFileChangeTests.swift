import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// Changes to an administrator's files that are not edits of their contents: `chmod` and `chown` of a file or of its `forced-defaults` folder, and files that are symbolic links (their targets edited, the links re-pointed).
@Suite("Settings an administrator manages: modes, owners and links")
struct AdministratorFileChangeTests {
	private static let isRoot = getuid() == 0

	/// A running `observe-managed` helper, and the "key …" lines it printed.
	private struct Observer {
		let process: ChildProcess

		init(suite: String, key: String, environment: [String: String] = TestEnvironment.environment) throws {
			process = try HelperProcess.start(["observe-managed", suite, key, "60"], environment: environment)
		}

		var ready: String? {
			process.waitForLine(timeout: 20) { $0.hasPrefix("ready") }
		}

		/// Waits for the `count`th "key …" line; returns every one printed.
		func keyLines(count: Int) -> [String] {
			_ = process.waitForLine(timeout: 20) { _ in lines.count >= count }
			return lines
		}

		/// Every "key …" line printed so far.
		var lines: [String] {
			process.receivedLines.filter { $0.hasPrefix("key ") }
		}
	}

	/// A temporary folder (mode 0755, root's), removed at the end.
	private final class Scratch {
		let root = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-admin-changes-\(UUID().uuidString)", isDirectory: true)

		init() throws {
			try folder("")
		}

		deinit {
			try? FileManager.default.removeItem(at: root)
		}

		@discardableResult
		func folder(_ path: String) throws -> URL {
			let folder = path.isEmpty ? root : root.appendingPathComponent(path, isDirectory: true)
			try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
			chmod(folder.path, 0o755)
			return folder
		}
	}

	/// Writes `values` to `file` atomically (a new inode, as editors and `defaults write` do), mode 0644.
	private static func install(_ values: [String: Any], at file: URL) throws {
		try PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0).write(to: file, options: .atomic)
		chmod(file.path, 0o644)
	}

	/// Points the link `link` at `target` in one step, as `ln -sfn` and `update-alternatives` do: a new link renamed over the old.
	private static func repoint(_ link: URL, to target: URL) throws {
		let spare = link.deletingLastPathComponent().appendingPathComponent(".\(link.lastPathComponent).new")
		unlink(spare.path)
		try FileManager.default.createSymbolicLink(atPath: spare.path, withDestinationPath: target.path)
		#expect(rename(spare.path, link.path) == 0)
	}

	// MARK: Modes and owners (issue 38, item 2)

	@Test("a running process hears a forced file become trusted and untrusted again by chmod and chown", .enabled(if: isRoot))
	func forcedFileModeAndOwnerReachRunningProcesses() throws {
		let managed = AdministratorLayerTests.ManagedSuite()
		let name = managed.suite.keyName("trust")
		try Self.install([name: "user"], at: managed.suite.fileURL)
		try Self.install([name: "forced"], at: managed.forcedFile)
		#expect(chmod(managed.forcedFile.path, 0o664) == 0)
		let observer = try Observer(suite: managed.suite.name, key: name)
		defer { observer.process.kill() }
		#expect(observer.ready == "ready user stored")

		let steps: [(change: () -> Int32, heard: String)] = [
			({ chmod(managed.forcedFile.path, 0o644) }, "key forced forced forced"),
			({ chmod(managed.forcedFile.path, 0o666) }, "key user writable stored"),
			({ chmod(managed.forcedFile.path, 0o644) }, "key forced forced forced"),
			({ chown(managed.forcedFile.path, 65534, 65534) }, "key user writable stored"),
			({ chown(managed.forcedFile.path, 0, 0) }, "key forced forced forced"),
		]
		for (index, step) in steps.enumerated() {
			#expect(step.change() == 0)
			#expect(observer.keyLines(count: index + 1) == steps.prefix(index + 1).map(\.heard), "step \(index)")
		}
	}

	@Test("a running process hears the forced-defaults folder become writable by others, or another user's, and trusted again", .enabled(if: isRoot))
	func forcedFolderModeAndOwnerReachRunningProcesses() throws {
		// A system folder of this test alone: changing the shared one's mode would untrust the other tests' forced files.
		let scratch = try Scratch()
		let system = try scratch.folder("xdg")
		let forcedFolder = try scratch.folder("xdg/\(AdministratorFiles.forcedFolderName)")
		let suite = TestSuite()
		let name = suite.keyName("folder")
		try Self.install([name: "forced"], at: forcedFolder.appendingPathComponent("\(suite.name).plist"))
		var environment = TestEnvironment.environment
		environment["XDG_CONFIG_DIRS"] = system.path
		let observer = try Observer(suite: suite.name, key: name, environment: environment)
		defer { observer.process.kill() }
		#expect(observer.ready == "ready forced forced")

		let steps: [(change: () -> Int32, heard: String)] = [
			({ chmod(forcedFolder.path, 0o777) }, "key app writable registeredDefault"),
			({ chmod(forcedFolder.path, 0o755) }, "key forced forced forced"),
			({ chown(forcedFolder.path, 65534, 65534) }, "key app writable registeredDefault"),
			({ chown(forcedFolder.path, 0, 0) }, "key forced forced forced"),
		]
		for (index, step) in steps.enumerated() {
			#expect(step.change() == 0)
			#expect(observer.keyLines(count: index + 1) == steps.prefix(index + 1).map(\.heard), "step \(index)")
		}
	}

	@Test("without inotify, a mode or owner change of an administrator's file or its folder is heard by checking; a suite's file is not checked for it", .enabled(if: isRoot))
	func pollingHearsModeAndOwner() async throws {
		let scratch = try Scratch()
		let administrators = try scratch.folder("forced-defaults")
		let users = try scratch.folder("user")
		let forced = administrators.appendingPathComponent("polled.plist")
		let suiteFile = users.appendingPathComponent("polled.plist")
		try Self.install(["key": "value"], at: forced)
		try Self.install(["key": "value"], at: suiteFile)

		let watcher = FileChangeWatcher(usesInotify: false)
		let administratorListener = CountingListener(forced)
		let suiteListener = CountingListener(suiteFile)
		_ = DiagnosticReporter.claiming(where: { $0.message.contains("inotify is unavailable") }) {
			watcher.watchWithoutCreatingFolders([administratorListener], hearing: .attributes)
			watcher.watch(suiteListener)
		}

		// The first check tells each listener once.
		#expect(await eventually(timeout: .seconds(10)) { administratorListener.count == 1 && suiteListener.count == 1 })
		let changes: [() -> Int32] = [
			{ chmod(forced.path, 0o664) },
			{ chown(forced.path, 65534, 65534) },
			{ chmod(administrators.path, 0o777) },
			{ chown(administrators.path, 65534, 65534) },
		]
		for (index, change) in changes.enumerated() {
			#expect(change() == 0)
			#expect(await eventually(timeout: .seconds(10)) { administratorListener.count == index + 2 }, "change \(index)")
		}

		#expect(chmod(suiteFile.path, 0o600) == 0)
		#expect(chmod(users.path, 0o700) == 0)
		try await Task.sleep(for: .milliseconds(3 * FileChangePolling.intervalMilliseconds))
		#expect(suiteListener.count == 1, "a suite's file is compared by identity only")
		withExtendedLifetime(watcher) {}
	}

	@Test("with inotify, a mode change wakes listeners of administrators' folders, not of suites' folders")
	func inotifyHearsModeOnlyForAdministrators() async throws {
		let scratch = try Scratch()
		let administrators = try scratch.folder("forced-defaults")
		let users = try scratch.folder("user")
		let forced = administrators.appendingPathComponent("heard.plist")
		let suiteFile = users.appendingPathComponent("heard.plist")
		try Self.install(["key": "value"], at: forced)
		try Self.install(["key": "value"], at: suiteFile)
		let administratorListener = CountingListener(forced)
		let suiteListener = CountingListener(suiteFile)
		FileChangeWatcher.shared.watchWithoutCreatingFolders([administratorListener], hearing: .attributes)
		FileChangeWatcher.shared.watch(suiteListener)

		#expect(chmod(forced.path, 0o600) == 0)
		#expect(await eventually(timeout: .seconds(10)) { administratorListener.count == 1 })
		#expect(chmod(administrators.path, 0o700) == 0)
		#expect(await eventually(timeout: .seconds(10)) { administratorListener.count == 2 })
		#expect(chmod(suiteFile.path, 0o644) == 0)
		#expect(chmod(users.path, 0o700) == 0)
		try await Task.sleep(for: .milliseconds(300))
		#expect(suiteListener.count == 0)
	}

	// MARK: Symbolic links (issue 38, item 5)

	@Test("a running process hears edits of a system-wide file's target through a chain of links, and a link re-pointed to another target")
	func linkedSystemWideFileReachesRunningProcesses() throws {
		let managed = AdministratorLayerTests.ManagedSuite()
		let scratch = try Scratch()
		let name = managed.suite.keyName("linked")
		let first = try scratch.folder("opt/first").appendingPathComponent("D.plist")
		let second = try scratch.folder("opt/second").appendingPathComponent("D.plist")
		// As packages install it: /etc/xdg/D.plist -> /etc/alternatives/D.plist -> /opt/first/D.plist.
		let alternative = try scratch.folder("alternatives").appendingPathComponent("D.plist")
		try Self.install([name: "first 1"], at: first)
		try Self.install([name: "second 1"], at: second)
		try FileManager.default.createSymbolicLink(at: alternative, withDestinationURL: first)
		try FileManager.default.createSymbolicLink(at: managed.systemWideFile, withDestinationURL: alternative)
		let observer = try Observer(suite: managed.suite.name, key: name)
		defer { observer.process.kill() }
		#expect(observer.ready == "ready first 1 systemWide")

		let steps: [(change: () throws -> Void, heard: String)] = [
			({ try Self.install([name: "first 2"], at: first) }, "key first 2 writable systemWide"),
			// The alternative chosen again (the intermediate link re-pointed).
			({ try Self.repoint(alternative, to: second) }, "key second 1 writable systemWide"),
			({ try Self.install([name: "second 2"], at: second) }, "key second 2 writable systemWide"),
			// The system file's own link re-pointed, straight at the first target.
			({ try Self.repoint(managed.systemWideFile, to: first) }, "key first 2 writable systemWide"),
			({ try Self.install([name: "first 3"], at: first) }, "key first 3 writable systemWide"),
		]
		for (index, step) in steps.enumerated() {
			try step.change()
			#expect(observer.keyLines(count: index + 1) == steps.prefix(index + 1).map(\.heard), "step \(index)")
		}
	}

	@Test("a running process hears edits, chmod and removal of a forced file's target, and a forced-defaults folder that is a link", .enabled(if: isRoot))
	func linkedForcedFileReachesRunningProcesses() throws {
		let managed = AdministratorLayerTests.ManagedSuite()
		let scratch = try Scratch()
		let name = managed.suite.keyName("linkedForced")
		let target = try scratch.folder("opt/forced").appendingPathComponent("D.plist")
		try Self.install([name: "forced 1"], at: target)
		try FileManager.default.createSymbolicLink(at: managed.forcedFile, withDestinationURL: target)
		let observer = try Observer(suite: managed.suite.name, key: name)
		defer { observer.process.kill() }
		#expect(observer.ready == "ready forced 1 forced")

		let steps: [(change: () throws -> Void, heard: String)] = [
			({ try Self.install([name: "forced 2"], at: target) }, "key forced 2 forced forced"),
			({ #expect(chmod(target.path, 0o666) == 0) }, "key app writable registeredDefault"),
			({ #expect(chmod(target.path, 0o644) == 0) }, "key forced 2 forced forced"),
			({ try FileManager.default.removeItem(at: target) }, "key app writable registeredDefault"),
			({ try Self.install([name: "forced 3"], at: target) }, "key forced 3 forced forced"),
		]
		for (index, step) in steps.enumerated() {
			try step.change()
			#expect(observer.keyLines(count: index + 1) == steps.prefix(index + 1).map(\.heard), "step \(index)")
		}
	}

	@Test("a forced-defaults folder that is a link is heard at its target, and when it is re-pointed", .enabled(if: isRoot))
	func linkedForcedFolderReachesRunningProcesses() throws {
		let scratch = try Scratch()
		let system = try scratch.folder("xdg")
		let first = try scratch.folder("opt/first")
		let second = try scratch.folder("opt/second")
		let suite = TestSuite()
		let name = suite.keyName("linkedFolder")
		let file = "\(suite.name).plist"
		try Self.install([name: "first 1"], at: first.appendingPathComponent(file))
		try Self.install([name: "second 1"], at: second.appendingPathComponent(file))
		let link = system.appendingPathComponent(AdministratorFiles.forcedFolderName)
		try FileManager.default.createSymbolicLink(at: link, withDestinationURL: first)
		var environment = TestEnvironment.environment
		environment["XDG_CONFIG_DIRS"] = system.path
		let observer = try Observer(suite: suite.name, key: name, environment: environment)
		defer { observer.process.kill() }
		#expect(observer.ready == "ready first 1 forced")

		let steps: [(change: () throws -> Void, heard: String)] = [
			({ try Self.install([name: "first 2"], at: first.appendingPathComponent(file)) }, "key first 2 forced forced"),
			({ try Self.repoint(link, to: second) }, "key second 1 forced forced"),
			({ try Self.install([name: "second 2"], at: second.appendingPathComponent(file)) }, "key second 2 forced forced"),
		]
		for (index, step) in steps.enumerated() {
			try step.change()
			#expect(observer.keyLines(count: index + 1) == steps.prefix(index + 1).map(\.heard), "step \(index)")
		}
	}

	@Test("the paths behind a file: each link of the chain, its target, and a linked folder with the file at its real place")
	func pathsBehindFollowTheChain() throws {
		let scratch = try Scratch()
		let real = try scratch.folder("real")
		let target = try scratch.folder("opt").appendingPathComponent("D.plist")
		try Self.install(["key": "value"], at: target)
		let folderLink = scratch.root.appendingPathComponent("linked")
		try FileManager.default.createSymbolicLink(at: folderLink, withDestinationURL: real)
		let middle = real.appendingPathComponent("middle.plist")
		try FileManager.default.createSymbolicLink(at: middle, withDestinationURL: target)
		let file = try scratch.folder("xdg").appendingPathComponent("D.plist")
		try FileManager.default.createSymbolicLink(at: file, withDestinationURL: folderLink.appendingPathComponent("middle.plist"))

		#expect(AdministratorFiles.pathsBehind(file).map(\.path) == [folderLink.appendingPathComponent("middle.plist").path, target.path, folderLink.path])
		#expect(AdministratorFiles.pathsBehind(target).isEmpty)
		let loop = scratch.root.appendingPathComponent("loop.plist")
		symlink(loop.path, loop.path)
		#expect(AdministratorFiles.pathsBehind(loop).isEmpty, "a loop ends, and names no other path")
	}

	// MARK: The origin of a value that does not decode (issue 38, item 8)

	@Test("a system-wide value of the wrong type: the read gives the default, origin says so, and the diagnostic names the administrator's file")
	func undecodableSystemWideValueIsNotItsOrigin() throws {
		let managed = AdministratorLayerTests.ManagedSuite()
		let name = managed.suite.keyName("wrongType")
		try Self.install([name: 5], at: managed.systemWideFile)
		let key = Defaults.Key<String>(name, default: "app", suite: managed.suite.defaults)
		let (value, reported) = DiagnosticReporter.claiming(where: { $0.key == name }) {
			Defaults[key]
		}

		#expect(value == "app")
		#expect(key.origin == .registeredDefault)
		let untyped: Defaults._AnyKey = key
		#expect(untyped.origin == .registeredDefault, "the same through the untyped key")
		#expect(reported.map(\.kind) == [.undecodableValue])
		let message = reported.first?.message ?? ""
		#expect(message.contains("the system-wide default in \(managed.systemWideFile.path)"), "\(message)")
		#expect(!message.contains("stored"), "the administrator's value is not the user's stored one: \(message)")

		// The same key of the right type reads it, and names its file.
		let intKey = Defaults.Key<Int>(name, default: 1, suite: managed.suite.defaults)
		#expect(Defaults[intKey] == 5)
		#expect(intKey.origin == .systemWide(file: managed.systemWideFile))
		// The user's value of the right type is read over it.
		Defaults[key] = "user"
		#expect(key.origin == .stored(file: managed.suite.fileURL))
	}

	@Test("a forced value of the wrong type: still forced, but the origin of what a read gives is the default", .enabled(if: isRoot))
	func undecodableForcedValueIsNotItsOrigin() throws {
		let managed = AdministratorLayerTests.ManagedSuite()
		let name = managed.suite.keyName("wrongForced")
		try Self.install([name: 5], at: managed.forcedFile)
		let key = Defaults.Key<String>(name, default: "app", suite: managed.suite.defaults)
		let (value, reported) = DiagnosticReporter.claiming(where: { $0.key == name }) {
			Defaults[key]
		}

		#expect(value == "app")
		#expect(key.isForced)
		#expect(key.origin == .registeredDefault)
		let message = reported.first?.message ?? ""
		#expect(message.contains("the value an administrator forces in \(managed.forcedFile.path)"), "\(message)")
		#expect(!message.contains("stored"), "\(message)")
	}
}

/// Counts the times it is told its file changed.
private final class CountingListener: FileChangeListener, Sendable {
	let url: URL
	private let changes = Locked(0)

	init(_ url: URL) {
		self.url = url
	}

	var count: Int {
		changes.withLock { $0 }
	}

	func fileDidChange() {
		changes.withLock { $0 += 1 }
	}
}
