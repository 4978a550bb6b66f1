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
