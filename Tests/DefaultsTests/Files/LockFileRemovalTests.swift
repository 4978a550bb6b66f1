import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// `defaults delete` removes a suite's lock file while holding it; whoever waited for that lock must not end up holding a lock nobody else sees.
@Suite("Lock file removed with its suite")
struct LockFileRemovalTests {
	@Test("a writer waiting for a lock whose file is deleted takes the lock file at the path instead")
	func waiterLocksTheCurrentFile() throws {
		let folder = TestEnvironment.configHome.appendingPathComponent("lock-removal-\(UUID().uuidString)")
		try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
		defer { try? FileManager.default.removeItem(at: folder) }
		let url = folder.appendingPathComponent("suite.plist")
		let lockPath = folder.appendingPathComponent(".suite.plist.lock").path

		let holding = DispatchSemaphore(value: 0)
		let holderDone = DispatchSemaphore(value: 0)
		DispatchQueue.global().async {
			try? POSIXFileSystem().withExclusiveLock(for: url) { () throws(Defaults.PersistenceError) in
				holding.signal()
				// Long enough for the waiter below to block on this lock file.
				Thread.sleep(forTimeInterval: 0.3)
				try POSIXFileSystem().removeLockFile(for: url)
			}
			holderDone.signal()
		}

		#expect(holding.wait(timeout: .now() + 10) == .success)
		let heldAtPath = Locked<Bool?>(nil)
		try POSIXFileSystem().withExclusiveLock(for: url) {
			// Another process arriving now opens the path: it must find the lock taken.
			let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
			defer { close(descriptor) }
			let taken = flock(descriptor, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK
			heldAtPath.withLock { $0 = taken }
		}

		#expect(holderDone.wait(timeout: .now() + 10) == .success)
		#expect(heldAtPath.withLock { $0 } == true)
	}

	@Test("deleting a file moves an unreadable one aside, each time to a new name, and removes the lock file")
	func deleteKeepsEveryUnreadableVersion() throws {
		let folder = TestEnvironment.configHome.appendingPathComponent("lock-removal-\(UUID().uuidString)")
		try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
		defer { try? FileManager.default.removeItem(at: folder) }
		let file = PreferencesFile(url: folder.appendingPathComponent("suite.plist"))

		var asides: [URL] = []
		for version in 0..<5 {
			try Data("damaged \(version)".utf8).write(to: file.url)
			guard case .movedAside(let aside) = try file.delete() else {
				Issue.record("version \(version) was not moved aside")
				return
			}

			asides.append(aside)
		}

		#expect(Set(asides).count == 5)
		for (version, aside) in asides.enumerated() {
			#expect(FileManager.default.contents(atPath: aside.path) == Data("damaged \(version)".utf8))
		}

		try file.update { $0 = ["a": .integer(1)] }
		#expect(try file.delete() == .deleted)
		#expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == asides.map(\.lastPathComponent).sorted())
	}
}
