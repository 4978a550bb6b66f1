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
}
