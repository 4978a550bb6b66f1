import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

@Suite("The preferences folder is removed while a process watches it")
struct FolderRemovalTests {
	/// A preferences folder of its own, inside a parent folder that can be removed too, for child processes only.
	private final class PrivateFolder {
		let parent = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-tests-folder-\(UUID().uuidString)", isDirectory: true)
		var folder: URL { parent.appendingPathComponent("config", isDirectory: true) }

		init() throws {
			try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
		}

		deinit {
			try? FileManager.default.removeItem(at: parent)
		}

		var environment: [String: String] {
			var environment = ProcessInfo.processInfo.environment
			environment["XDG_CONFIG_HOME"] = folder.path
			return environment
		}
	}

	/// What is removed: the preferences folder itself, or its parent with it.
	static let removals = ["folder", "parent"]

	@Test(arguments: removals)
	func aChangeMadeAfterTheFolderComesBackIsSeen(_ removed: String) throws {
		let sandbox = try PrivateFolder()
		let suite = "defaults-tests.folder-removal.\(UUID().uuidString)"
		#expect(try HelperProcess.run(["write", suite, "value", "1", "flush"], environment: sandbox.environment).status == 0)

		let observer = try HelperProcess.start(["observe", suite, "value", "20"], environment: sandbox.environment)
		defer { observer.kill() }
		#expect(observer.waitForLine(timeout: 10) { $0 == "ready" } != nil)

		try FileManager.default.removeItem(at: removed == "folder" ? sandbox.folder : sandbox.parent)
		#expect(observer.waitForLine(timeout: 5) { $0 == "change 1 -1" } != nil, "the file went with the folder: its keys read as deleted")
		// Named as a watched folder: the watcher watches relay, remote and administrators' folders too, which are no preferences folder.
		#expect(observer.waitForErrorOutput(containing: "the watched folder \(sandbox.folder.path) was removed or moved away", timeout: 5), "the gap is reported: \(observer.errorOutputText)")

		// The writer recreates the folder (and its parent) itself.
		let writing = Date()
		#expect(try HelperProcess.run(["write", suite, "value", "5", "flush"], environment: sandbox.environment).status == 0)
		#expect(observer.waitForLine(timeout: 5) { $0 == "change -1 5" } != nil, "a change made in the new folder is seen: \(observer.receivedLines)")
		print("measured: after removing the \(removed), a change in the re-created folder seen \(Int(Date().timeIntervalSince(writing) * 1000)) ms after the writer started")
		#expect(observer.waitForErrorOutput(containing: "exists again after", timeout: 5), "the end of the gap is reported: \(observer.errorOutputText)")

		// And the watch keeps working after that.
		#expect(try HelperProcess.run(["write", suite, "value", "6", "flush"], environment: sandbox.environment).status == 0)
		#expect(observer.waitForLine(timeout: 5) { $0 == "change 5 6" } != nil)
	}

	@Test func aChangeMadeWhileTheFolderWasMissingIsCaughtUp() throws {
		let sandbox = try PrivateFolder()
		let suite = "defaults-tests.folder-catch-up.\(UUID().uuidString)"
		let observer = try HelperProcess.start(["observe", suite, "value", "20"], environment: sandbox.environment)
		defer { observer.kill() }
		#expect(observer.waitForLine(timeout: 10) { $0 == "ready" } != nil)

		// The folder is replaced by another one, with the file already in it, in one rename: no event names the file.
		let staging = sandbox.parent.appendingPathComponent("staging", isDirectory: true)
		var stagingEnvironment = sandbox.environment
		stagingEnvironment["XDG_CONFIG_HOME"] = staging.path
		#expect(try HelperProcess.run(["write", suite, "value", "7", "flush"], environment: stagingEnvironment).status == 0)
		try FileManager.default.removeItem(at: sandbox.folder)
		#expect(rename(staging.path, sandbox.folder.path) == 0)

		#expect(observer.waitForLine(timeout: 5) { $0 == "change -1 7" } != nil, "the file is re-read when the folder is back: \(observer.receivedLines)")
	}

	/// Listens to every file of a folder, and says when it hears something.
	private final class FolderListener: FileChangeListener, Sendable {
		let url: URL
		let heard = DispatchSemaphore(value: 0)

		init(_ folder: URL) {
			url = folder
		}

		func fileDidChange() {
			heard.signal()
		}
	}

	@Test func aFolderNobodyListensToAnyMoreIsForgottenWhenItIsRemoved() throws {
		#if canImport(Glibc)
		let abandoned = try PrivateFolder()
		let listened = try PrivateFolder()
		let (abandonedPath, listenedPath) = (abandoned.folder.standardizedFileURL.path, listened.folder.standardizedFileURL.path)
		var gone: FolderListener? = FolderListener(abandoned.folder)
		let listener = FolderListener(listened.folder)
		FileChangeWatcher.shared.watchFolder(try #require(gone))
		FileChangeWatcher.shared.watchFolder(listener)
		gone = nil

		let (_, reported) = try DiagnosticReporter.claiming(where: { diagnostic in [abandonedPath, listenedPath].contains { diagnostic.message.contains($0) } }) {
			// One watcher thread reads the events in order: once the listened folder's loss is heard, the other's was handled.
			try FileManager.default.removeItem(at: abandoned.parent)
			try FileManager.default.removeItem(at: listened.parent)
			#expect(listener.heard.wait(timeout: .now() + 30) == .success)
		}

		#expect(reported.map(\.kind) == [.watchInterrupted])
		#expect(reported.allSatisfy { $0.message.contains(listenedPath) }, "only the folder still listened to is reported: \(reported)")
		let (listenedFolders, missingFolders) = FileChangeWatcher.shared.state.withLock { ($0.listenedFolders, $0.missingFolders) }
		#expect(!listenedFolders.contains(abandonedPath) && missingFolders[abandonedPath] == nil, "nobody waits for the abandoned folder")
		#expect(missingFolders[listenedPath] != nil, "the listened one is awaited")
		withExtendedLifetime(listener) {}
		#endif
	}
}
