import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// A dotfile manager links `~/.config/NAME.plist` into a repository: the library writes through the link and keeps it.
@Suite("Symbolic links: a linked suite file is written through, the link stays")
struct SymbolicLinkTests {
	/// A folder standing for the dotfiles repository, removed with the test.
	private final class Repository {
		let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("defaults-links-\(UUID().uuidString)", isDirectory: true)

		init() throws {
			try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
		}

		deinit {
			try? FileManager.default.removeItem(at: folder)
		}

		func file(_ name: String) -> URL {
			folder.appendingPathComponent(name)
		}
	}

	private func isLink(_ url: URL) -> Bool {
		var info = stat()
		return lstat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
	}

	private func contents(_ url: URL) -> [String: Any]? {
		FileManager.default.contents(atPath: url.path).flatMap { try? PropertyListSerialization.propertyList(from: $0, format: nil) as? [String: Any] }
	}

	private func mode(_ url: URL) -> mode_t {
		var info = stat()
		stat(url.path, &info)
		return info.st_mode & 0o777
	}

	@Test func aWriteReplacesTheTargetAndKeepsTheLinkAndTheTargetsMode() throws {
		let repository = try Repository()
		let suite = TestSuite()
		let target = repository.file("settings.plist")
		try PropertyListSerialization.data(fromPropertyList: ["kept": 1], format: .binary, options: 0).write(to: target)
		chmod(target.path, 0o644)
		#expect(symlink(target.path, suite.fileURL.path) == 0)

		let key = Defaults.Key<Int>("written", default: 0, suite: suite.defaults)
		#expect(Defaults[Defaults.Key<Int>("kept", default: 0, suite: suite.defaults)] == 1, "read through the link")
		Defaults[key] = 2
		try Defaults.flush(suite: suite.defaults)

		#expect(isLink(suite.fileURL), "the link stays a link")
		#expect(contents(target)?["written"] as? Int == 2)
		#expect(contents(target)?["kept"] as? Int == 1)
		#expect(mode(target) == 0o644, "the target keeps its permissions")
		let leftovers = try FileManager.default.contentsOfDirectory(atPath: repository.folder.path).sorted()
		#expect(leftovers == [".settings.plist.lock", "settings.plist"], "no temporary file left beside the target, only the lock that writers by its own name take too")
	}

	@Test func aRelativeLinkIsResolvedFromItsOwnFolder() throws {
		let repository = try Repository()
		let suite = TestSuite()
		let target = repository.file("relative.plist")
		let linkFolder = suite.fileURL.deletingLastPathComponent().standardizedFileURL.path
		let up = linkFolder.split(separator: "/").map { _ in ".." }.joined(separator: "/")
		#expect(symlink(up + target.path, suite.fileURL.path) == 0)

		Defaults[Defaults.Key<String>("name", default: "", suite: suite.defaults)] = "ada"
		try Defaults.flush(suite: suite.defaults)

		#expect(isLink(suite.fileURL))
		#expect(contents(target)?["name"] as? String == "ada")
	}

	@Test func aLinkIntoAMissingFolderFailsWithAReasonAndTheChangeWaits() throws {
		let repository = try Repository()
		let suite = TestSuite()
		let missing = repository.folder.appendingPathComponent("not-yet", isDirectory: true)
		#expect(symlink(missing.appendingPathComponent("s.plist").path, suite.fileURL.path) == 0)
		let key = Defaults.Key<Int>("pending", default: 0, suite: suite.defaults)

		Defaults[key] = 3
		var thrown: Defaults.PersistenceError?
		do {
			try Defaults.flush(suite: suite.defaults)
		} catch {
			thrown = error
		}

		guard case .symbolicLink(let path, let reason)? = thrown else {
			Issue.record("expected a symbolic-link error, got \(String(describing: thrown))")
			return
		}

		#expect(path == suite.fileURL.path)
		#expect(reason.contains("does not exist"))
		#expect(Defaults[key] == 3, "the change stays pending")
		#expect(isLink(suite.fileURL))

		try FileManager.default.createDirectory(at: missing, withIntermediateDirectories: true)
		try Defaults.flush(suite: suite.defaults)
		#expect(contents(missing.appendingPathComponent("s.plist"))?["pending"] as? Int == 3)
	}

	@Test func aLoopOfLinksIsRefused() throws {
		let repository = try Repository()
		let suite = TestSuite()
		let other = repository.file("loop.plist")
		#expect(symlink(other.path, suite.fileURL.path) == 0)
		#expect(symlink(suite.fileURL.path, other.path) == 0)
		let key = Defaults.Key<Int>("looped", default: 0, suite: suite.defaults)

		Defaults[key] = 1
		#expect {
			try Defaults.flush(suite: suite.defaults)
		} throws: { error in
			guard case .symbolicLink? = error as? Defaults.PersistenceError else {
				return false
			}

			return true
		}
		#expect(isLink(suite.fileURL))

		// Break the loop, so the pending change (retried meanwhile) lands where the suite's files are removed.
		unlink(suite.fileURL.path)
		try Defaults.flush(suite: suite.defaults)
	}

	@Test func aLinkedLockFileIsReportedAsALink() throws {
		let repository = try Repository()
		let suite = TestSuite()
		let lock = TestEnvironment.configHome.appendingPathComponent(".\(suite.name).plist.lock")
		#expect(symlink(repository.file("lock").path, lock.path) == 0)
		let key = Defaults.Key<Int>("locked", default: 0, suite: suite.defaults)

		Defaults[key] = 1
		#expect {
			try Defaults.flush(suite: suite.defaults)
		} throws: { error in
			(error as? Defaults.PersistenceError).map { "\($0)" }?.contains("symbolic link") == true
		}
		unlink(lock.path)
	}
}
