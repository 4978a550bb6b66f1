import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// A process that finds no inotify instance left (a user's 128 taken by other processes) still sees other processes' changes.
@Suite("Without inotify, files are checked on a timer")
struct FileChangePollingTests {
	private final class Listener: FileChangeListener, Sendable {
		let url: URL
		let changes = Locked(0)

		init(_ url: URL) {
			self.url = url
		}

		func fileDidChange() {
			changes.withLock { $0 += 1 }
		}
	}

	@Test("a replaced file and a folder whose files change are heard, said once, and an unchanged file only at the first check")
	func changesAreHeardByPolling() async throws {
		let folder = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-polling-\(UUID().uuidString)", isDirectory: true)
		try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
		defer { try? FileManager.default.removeItem(at: folder) }
		let watched = folder.appendingPathComponent("watched.plist")
		let quiet = folder.appendingPathComponent("quiet.plist")
		try Data("1".utf8).write(to: watched, options: .atomic)
		try Data("1".utf8).write(to: quiet, options: .atomic)

		let watcher = FileChangeWatcher(usesInotify: false)
		let file = Listener(watched)
		let unchanged = Listener(quiet)
		let wholeFolder = Listener(folder)
		let (_, reported) = DiagnosticReporter.claiming(where: { $0.message.contains("inotify is unavailable") }) {
			watcher.watch(file)
			watcher.watch(unchanged)
			watcher.watchFolder(wholeFolder)
		}
		#expect(reported.count == 1, "said once, not per file: \(reported.map(\.message))")

		// The first check tells every listener once (a write just before it listened would be missed otherwise).
		#expect(await eventually(timeout: .seconds(10)) { [file, unchanged, wholeFolder].allSatisfy { $0.changes.withLock { $0 } == 1 } })
		try Data("2".utf8).write(to: watched, options: .atomic)
		#expect(await eventually(timeout: .seconds(10)) { file.changes.withLock { $0 } == 2 })
		#expect(await eventually(timeout: .seconds(10)) { wholeFolder.changes.withLock { $0 } == 2 })
		try await Task.sleep(for: .milliseconds(3 * FileChangePolling.intervalMilliseconds))
		#expect(unchanged.changes.withLock { $0 } == 1, "nothing since the first check")
	}

	/// A temporary folder for one test, removed by the caller.
	private static func makeFolder() throws -> URL {
		let folder = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-polling-\(UUID().uuidString)", isDirectory: true)
		try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
		return folder
	}

	/// Matches the diagnostic that says a folder of this test (in `folders`) is checked on a timer because it cannot be watched.
	private static func watchFallback(in folders: URL...) -> @Sendable (Defaults.Diagnostic) -> Bool {
		let paths = folders.map(\.path)
		return { diagnostic in
			diagnostic.message.contains("inotify cannot watch") && paths.contains { diagnostic.message.contains($0) }
		}
	}

	@Test("folders inotify cannot watch (the user's watch limit reached) are checked on a timer, said once with the reason")
	func unwatchableFoldersArePolled() async throws {
		let first = try Self.makeFolder()
		let second = try Self.makeFolder()
		defer {
			try? FileManager.default.removeItem(at: first)
			try? FileManager.default.removeItem(at: second)
		}
		let watched = first.appendingPathComponent("watched.plist")
		try Data("1".utf8).write(to: watched, options: .atomic)

		// Every watch fails as it does when fs.inotify.max_user_watches is reached.
		let watcher = FileChangeWatcher { _, _, _ in .failure(FileChangeWatcher.WatchFailure(code: ENOSPC)) }
		let file = Listener(watched)
		let administrators = Listener(second.appendingPathComponent("forced.plist"))
		let wholeFolder = Listener(second)
		let (_, reported) = DiagnosticReporter.claiming(where: Self.watchFallback(in: first, second)) {
			watcher.watch(file)
			watcher.watchWithoutCreatingFolders([administrators], hearing: .attributes)
			watcher.watchFolder(wholeFolder)
		}
		#expect(reported.count == 1, "said once, not per folder: \(reported.map(\.message))")
		#expect(reported.first?.message.contains(first.path) == true && reported.first?.message.contains("max_user_watches") == true, "\(reported.map(\.message))")
		#expect(watcher.state.withLock { ($0.polledFolders, $0.missingFolders.isEmpty) } == ([first.path, second.path], true), "polled, not awaited as missing")

		#expect(await eventually(timeout: .seconds(10)) { [file, administrators, wholeFolder].allSatisfy { $0.changes.withLock { $0 } >= 1 } })
		let seen = (file.changes.withLock { $0 }, administrators.changes.withLock { $0 }, wholeFolder.changes.withLock { $0 })
		try Data("2".utf8).write(to: watched, options: .atomic)
		#expect(await eventually(timeout: .seconds(10)) { file.changes.withLock { $0 } > seen.0 }, "another process's change is seen")
		try Data("x".utf8).write(to: second.appendingPathComponent("forced.plist"), options: .atomic)
		#expect(await eventually(timeout: .seconds(10)) { administrators.changes.withLock { $0 } > seen.1 && wholeFolder.changes.withLock { $0 } > seen.2 })
	}

	@Test("only the folder that cannot be watched is polled; the others keep their watches")
	func onlyTheUnwatchableFolderIsPolled() async throws {
		let watchable = try Self.makeFolder()
		let unwatchable = try Self.makeFolder()
		defer {
			try? FileManager.default.removeItem(at: watchable)
			try? FileManager.default.removeItem(at: unwatchable)
		}

		let watcher = FileChangeWatcher { descriptor, path, events in
			path == unwatchable.path ? .failure(FileChangeWatcher.WatchFailure(code: ENOMEM)) : FileChangeWatcher.addInotifyWatch(descriptor, path, events)
		}
		let heard = Listener(watchable.appendingPathComponent("a.plist"))
		let polled = Listener(unwatchable.appendingPathComponent("b.plist"))
		let (_, reported) = DiagnosticReporter.claiming(where: Self.watchFallback(in: watchable, unwatchable)) {
			watcher.watch(heard)
			watcher.watch(polled)
		}
		#expect(reported.map(\.message).contains { $0.contains(unwatchable.path) && $0.contains(String(cString: strerror(ENOMEM))) }, "\(reported.map(\.message))")
		#expect(watcher.state.withLock { $0.polledFolders } == [unwatchable.path])

		#expect(await eventually(timeout: .seconds(10)) { polled.changes.withLock { $0 } == 1 }, "the first check")
		try Data("1".utf8).write(to: unwatchable.appendingPathComponent("b.plist"), options: .atomic)
		#expect(await eventually(timeout: .seconds(10)) { polled.changes.withLock { $0 } == 2 })
		#expect(heard.changes.withLock { $0 } == 0, "a watched folder is not checked on the timer")
		try Data("1".utf8).write(to: watchable.appendingPathComponent("a.plist"), options: .atomic)
		#expect(await eventually(timeout: .seconds(10)) { heard.changes.withLock { $0 } >= 1 }, "through its watch")
	}

	@Test("a folder that reappears but cannot be watched any more is polled")
	func reappearingUnwatchableFolderIsPolled() async throws {
		let parent = try Self.makeFolder()
		defer { try? FileManager.default.removeItem(at: parent) }
		let folder = parent.appendingPathComponent("preferences", isDirectory: true)
		try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
		let limitReached = Locked(false)
		// Once the limit is reached, the folder cannot be watched when it exists (a missing one still fails with ENOENT, as the kernel says).
		let watcher = FileChangeWatcher { descriptor, path, events in
			if limitReached.withLock({ $0 }), path == folder.path, FileManager.default.fileExists(atPath: path) {
				return .failure(FileChangeWatcher.WatchFailure(code: ENOSPC))
			}

			return FileChangeWatcher.addInotifyWatch(descriptor, path, events)
		}
		let listener = Listener(folder.appendingPathComponent("s.plist"))
		watcher.watch(listener)

		let folderPath = folder.path
		let (_, reported) = try await DiagnosticReporter.claimingAsync(where: { $0.message.contains(folderPath) }) {
			limitReached.withLock { $0 = true }
			try FileManager.default.removeItem(at: folder)
			#expect(await eventually(timeout: .seconds(10)) { watcher.state.withLock { $0.missingFolders[folder.path] != nil } })
			try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
			#expect(await eventually(timeout: .seconds(10)) { watcher.state.withLock { $0.polledFolders.contains(folder.path) } }, "not awaited forever")
			let before = listener.changes.withLock { $0 }
			try await Task.sleep(for: .milliseconds(2 * FileChangePolling.intervalMilliseconds))
			try Data("1".utf8).write(to: folder.appendingPathComponent("s.plist"), options: .atomic)
			#expect(await eventually(timeout: .seconds(10)) { listener.changes.withLock { $0 } > before })
		}
		#expect(reported.filter { $0.message.contains("inotify cannot watch") }.count == 1, "\(reported.map(\.message))")
	}

	@Test("a folder that does not exist is still awaited, not polled, and heard once it exists")
	func missingFolderIsAwaited() async throws {
		let parent = try Self.makeFolder()
		defer { try? FileManager.default.removeItem(at: parent) }
		let folder = parent.appendingPathComponent("not-yet", isDirectory: true)
		let watcher = FileChangeWatcher()
		let listener = Listener(folder.appendingPathComponent("s.plist"))
		let (_, reported) = DiagnosticReporter.claiming(where: Self.watchFallback(in: parent)) {
			watcher.watchWithoutCreatingFolders([listener])
		}
		#expect(reported.isEmpty)
		#expect(watcher.state.withLock { ($0.polledFolders.isEmpty, $0.missingFolders[folder.path] != nil) } == (true, true))

		try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
		try Data("1".utf8).write(to: folder.appendingPathComponent("s.plist"), options: .atomic)
		#expect(await eventually(timeout: .seconds(10)) { listener.changes.withLock { $0 } >= 1 })
		#expect(watcher.state.withLock { $0.polledFolders.isEmpty })
	}
}
