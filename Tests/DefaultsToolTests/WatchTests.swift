import DefaultsTestSupport
import Foundation
import Testing

/// Whether the test can run `defaults` as a user for whom a folder is searchable but not readable: any user but root, or root through `setpriv`.
private let canDropPrivileges = geteuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

/// `watch` runs as one process and reports what other processes write.
@Suite("defaults watch")
struct WatchTests {
	/// Starts `defaults watch` and waits until it is listening.
	private func startWatching(_ sandbox: ToolSandbox, _ arguments: String...) throws -> ChildProcess {
		let watcher = try ChildProcess("defaults", ["watch"] + arguments, environment: sandbox.environment)
		try #require(watcher.waitForErrorOutput(containing: "Watching", timeout: 10), "watch did not start: \(watcher.errorOutputText)")
		return watcher
	}

	/// The test runner blocks SIGINT and SIGTERM and its children inherit that mask, so this also proves `watch` unblocks them.
	@Test("prints each change made by another defaults process, then stops cleanly on SIGINT")
	func changesFromAnotherProcess() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "greeting", "-string", "hello")
		try sandbox.succeed("write", sandbox.domain, "old", "-int", "1")
		let watcher = try startWatching(sandbox, sandbox.domain)

		try sandbox.succeed("write", sandbox.domain, "greeting", "-string", "hi there")
		#expect(watcher.waitForLine(timeout: 10) { $0.hasSuffix(#" greeting: hello -> "hi there""#) } != nil)
		try sandbox.succeed("delete", sandbox.domain, "old")
		#expect(watcher.waitForLine(timeout: 10) { $0.hasSuffix(" old: 1 -> (absent)") } != nil)
		try sandbox.succeed("write", sandbox.domain, "tags", "-array", "a", "b c")
		#expect(watcher.waitForLine(timeout: 10) { $0.hasSuffix(#" tags: (absent) -> (a, "b c")"#) } != nil)

		#expect(watcher.stop(with: SIGINT) == 0)
		#expect(watcher.receivedLines.count == 3)
	}

	@Test("catches the writes of a program using the library, and its domain's deletion")
	func changesFromLibraryProcess() throws {
		let sandbox = ToolSandbox()
		let watcher = try startWatching(sandbox, sandbox.domain, "--json")

		// The helper writes an Int key through `Defaults` and flushes it.
		let writer = try ChildProcess.run("DefaultsTestHelper", ["write", sandbox.domain, "count", "42", "flush"], environment: sandbox.environment)
		#expect(writer.status == 0)
		let line = try #require(watcher.waitForLine(timeout: 10) { $0.contains(#""key":"count""#) })
		let event = try #require(try sandbox.json(line) as? [String: Any])
		#expect(event["new"] as? Int == 42)
		#expect(event["old"] == nil)
		#expect(event["time"] is String)

		try sandbox.succeed("delete", sandbox.domain)
		#expect(watcher.waitForLine(timeout: 10) { $0.contains(#""old":42"#) && !$0.contains(#""new""#) } != nil)
		watcher.stop(with: SIGTERM)
	}

	@Test("with a key, reports only that key")
	func oneKey() throws {
		let sandbox = ToolSandbox()
		let watcher = try startWatching(sandbox, sandbox.domain, "wanted")

		try sandbox.succeed("write", sandbox.domain, "ignored", "-int", "1")
		try sandbox.succeed("write", sandbox.domain, "wanted", "-int", "2")
		#expect(watcher.waitForLine(timeout: 10) { $0.hasSuffix(" wanted: (absent) -> 2") } != nil)
		watcher.stop(with: SIGINT)
		#expect(!watcher.outputText.contains("ignored"))
	}

	@Test("a program using the library observes what defaults writes")
	func libraryObservesTool() throws {
		let sandbox = ToolSandbox()
		let observer = try ChildProcess("DefaultsTestHelper", ["observe", sandbox.domain, "count", "20"], environment: sandbox.environment)
		try #require(observer.waitForLine(timeout: 10) { $0 == "ready" } != nil)

		try sandbox.succeed("write", sandbox.domain, "count", "-int", "7")
		#expect(observer.waitForLine(timeout: 10) { $0 == "change -1 7" } != nil)
		observer.kill()
	}

	@Test("watching an unreadable file or a bad domain fails at once")
	func watchErrors() throws {
		let sandbox = ToolSandbox()
		try Data("garbage".utf8).write(to: sandbox.fileURL)
		#expect(try sandbox.fail("watch", sandbox.domain).contains("is not a readable property list"))
		#expect(try sandbox.fail("watch", "../x").contains("would leave the preferences folder"))
		#expect(try sandbox.fail("watch", "--path", "/no/such/folder/file.plist").contains("no such folder"))
	}

	/**
	A folder its user may search but not read (`0311`) cannot be watched
	(`inotify_add_watch` fails with `EACCES`), as a folder cannot be once the
	user's watches are all taken (`ENOSPC`): the watcher must not wait for it
	to appear, as it does for a missing folder, since it never will. Root reads
	any folder, so as root the tool runs as `nobody`.
	*/
	@Test("a change to a file in a folder that cannot be watched is reported, with one line saying why", .enabled(if: canDropPrivileges))
	func unwatchableFolder() throws {
		let sandbox = ToolSandbox()
		chmod(sandbox.folder.path, 0o755)
		let folder = sandbox.folder.appendingPathComponent("unreadable", isDirectory: true)
		try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
		let file = folder.appendingPathComponent("D.plist")
		try sandbox.succeed("write", "--path", file.path, "greeting", "-string", "hello")
		chmod(file.path, 0o644)
		try #require(chmod(folder.path, 0o311) == 0)
		defer { chmod(folder.path, 0o755) }

		let tool = ChildProcess.executable(named: "defaults").path
		let watch = ["watch", "--path", file.path]
		let watcher =
			geteuid() == 0
			? try ChildProcess(path: "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", tool] + watch, environment: sandbox.environment)
			: try ChildProcess(path: tool, watch, environment: sandbox.environment)
		defer { watcher.kill() }
		try #require(watcher.waitForErrorOutput(containing: "Watching", timeout: 10), "watch did not start: \(watcher.errorOutputText)")
		#expect(watcher.waitForErrorOutput(containing: "inotify cannot watch the preferences folder \(folder.path) (", timeout: 10), "\(watcher.errorOutputText)")

		try sandbox.succeed("write", "--path", file.path, "greeting", "-string", "hi")
		#expect(watcher.waitForLine(timeout: 10) { $0.hasSuffix(" greeting: hello -> hi") } != nil, "\(watcher.receivedLines) \(watcher.errorOutputText)")
		#expect(watcher.errorOutputText.components(separatedBy: "inotify cannot watch").count == 2, "said once: \(watcher.errorOutputText)")
	}
}
