import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// How long a test lets a child run before it kills it: a hang fails the test instead of stalling the run.
private let hangDeadline: TimeInterval = 20

/// The longest a flush may wait for another process's lock, plus scheduling slack on a loaded machine.
private let lockWaitBound: TimeInterval = FileLimits.lockTimeout / .seconds(1) + 2

@Suite("Nothing hangs: special files and held locks")
struct NoHangTests {
	/// A suite name that no `TestSuite` object uses, so this test process never opens the file itself.
	private func uniqueSuiteName(_ label: String) -> String {
		"defaults-tests.\(label).\(UUID().uuidString)"
	}

	/// The files a suite's special file was moved to.
	private func asides(ofSuite name: String) -> [String] {
		((try? FileManager.default.contentsOfDirectory(atPath: TestEnvironment.configHome.path)) ?? [])
			.filter { $0.hasPrefix("\(name).unreadable-") }
			.map { TestEnvironment.configHome.appendingPathComponent($0).path }
	}

	/// A FIFO or a link to a device at the suite's path when the process starts: Foundation's own reads would block on it, so it is moved aside, never opened.
	@Test(arguments: ["fifo", "device"], ["flush", "return"])
	func aSpecialFileAtTheSuitesPathIsSetAsideUnopened(_ kind: String, _ exitPath: String) throws {
		let name = uniqueSuiteName(kind)
		let path = TestEnvironment.fileURL(ofSuite: name).path
		#expect(kind == "fifo" ? mkfifo(path, 0o600) == 0 : symlink("/dev/null", path) == 0)
		defer {
			TestEnvironment.removeFiles(ofSuite: name)
			for aside in asides(ofSuite: name) {
				unlink(aside)
			}
		}

		let child = try HelperProcess.start(["write", name, "key", "1", exitPath])
		let status = child.waitUntilExit(timeout: hangDeadline)

		#expect(status == 0, "the process ended normally instead of hanging: \(child.errorOutputText)")
		#expect(child.errorOutputText.contains("not a regular file"), "\(child.errorOutputText)")
		let data = try #require(FileManager.default.contents(atPath: path))
		let contents = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
		#expect(contents?["key"] as? Int == 1, "the suite is written as a regular file")
		let aside = try #require(asides(ofSuite: name).first, "the special file is kept")
		var info = stat()
		#expect(lstat(aside, &info) == 0 && (info.st_mode & S_IFMT) == (kind == "fifo" ? S_IFIFO : S_IFLNK))
	}

	/// A FIFO that appears while the process runs is refused by a flush without being opened (a watchdog opens its other end should the read block).
	@Test func readingAFIFONeverBlocks() throws {
		let path = TestEnvironment.configHome.appendingPathComponent("fifo-\(UUID().uuidString).plist").path
		#expect(mkfifo(path, 0o600) == 0)
		defer { unlink(path) }
		DispatchQueue.global().asyncAfter(deadline: .now() + hangDeadline) {
			let writer = open(path, O_WRONLY | O_NONBLOCK)
			if writer >= 0 {
				close(writer)
			}
		}

		let start = Date()
		#expect(throws: Defaults.PersistenceError.notARegularFile(path: path)) {
			_ = try POSIXFileSystem().read(URL(fileURLWithPath: path))
		}
		// The writer end opens only at the deadline: a read that waited for it would have taken that long.
		#expect(Date().timeIntervalSince(start) < hangDeadline / 2)
	}

	@Test func aFIFOAsTheLockFileIsRefused() throws {
		let name = uniqueSuiteName("fifolock")
		let lock = TestEnvironment.configHome.appendingPathComponent(".\(name).plist.lock").path
		#expect(mkfifo(lock, 0o600) == 0)
		defer { TestEnvironment.removeFiles(ofSuite: name) }

		let child = try HelperProcess.start(["write", name, "key", "1", "flush"])
		let status = child.waitUntilExit(timeout: hangDeadline)

		#expect(status != nil && status != 0)
		#expect(child.errorOutputText.contains("not a regular file"), "\(child.errorOutputText)")
	}

	/// Another process holding one suite's lock holds up that suite's flush only: another suite's write reaches the disk while that flush still waits.
	@Test func aHeldLockDoesNotHoldUpAnotherSuitesWrites() throws {
		let stuck = TestSuite()
		let free = TestSuite()
		let stuckKey = Defaults.Key<Int>(stuck.keyName(), default: 0, suite: stuck.defaults)
		let freeKey = Defaults.Key<Int>(free.keyName(), default: 0, suite: free.defaults)
		let holder = try HelperProcess.start(["hold-lock", stuck.name])
		defer { holder.kill() }
		#expect(holder.waitForLine(timeout: 10) { $0 == "locked" } != nil)
		let stuckFile = try #require(Suite.of(stuck.defaults).file)
		/// Whether a flush of the stuck suite is under way (it holds the suite's flush lock while it waits for the other process's).
		func isFlushing() -> Bool {
			guard stuckFile.fileLock.lock(before: Date()) else {
				return true
			}

			stuckFile.fileLock.unlock()
			return false
		}

		Defaults[stuckKey] = 1
		#expect(stuck.wait(timeout: hangDeadline) { isFlushing() }, "the stuck suite's scheduled flush started")
		Defaults[freeKey] = 2
		#expect(free.wait(timeout: hangDeadline) { free.fileContents()?[freeKey.name] as? Int == 2 })
		#expect(isFlushing(), "the other suite's write reached the disk while the stuck suite's flush still waited, not after it gave up")
		holder.kill()
		#expect(stuck.wait(timeout: hangDeadline) { stuck.fileContents()?[stuckKey.name] as? Int == 1 }, "retried once the lock is free")
	}

	/// A stopped process holding the lock (a `defaults` suspended with Ctrl-Z, a debugger) delays a flush by the bound, no more; the change is kept and written once the lock is free.
	@Test func aHeldLockBoundsTheFlushAndTheChangeIsRetried() throws {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let holder = try HelperProcess.start(["hold-lock", suite.name])
		#expect(holder.waitForLine(timeout: 10) { $0 == "locked" } != nil)
		holder.send(SIGSTOP)
		let released = Locked(false)
		let release: @Sendable () -> Void = {
			let isFirst = released.withLock { released in
				defer { released = true }
				return !released
			}
			if isFirst {
				holder.kill()
			}
		}
		DispatchQueue.global().asyncAfter(deadline: .now() + hangDeadline) { release() }

		Defaults[key] = 1
		let start = Date()
		var thrown: (any Error)?
		do {
			try Defaults.flush(suite: suite.defaults)
		} catch {
			thrown = error
		}
		let waited = Date().timeIntervalSince(start)

		#expect(waited < lockWaitBound, "the flush gave up after \(waited) s")
		let isLockTimeout = if case .lockTimedOut? = thrown as? Defaults.PersistenceError { true } else { false }
		#expect(isLockTimeout, "\(String(describing: thrown))")
		#expect(Defaults[key] == 1, "the change stays in memory")

		release()
		#expect(suite.wait(timeout: 10) { suite.fileContents()?[key.name] as? Int == 1 }, "retried without another write")
	}

	@Test func exitWithAHeldLockFinishesAndSaysWhatItCouldNotWrite() throws {
		let name = uniqueSuiteName("heldlock")
		defer { TestEnvironment.removeFiles(ofSuite: name) }
		let holder = try HelperProcess.start(["hold-lock", name])
		#expect(holder.waitForLine(timeout: 10) { $0 == "locked" } != nil)
		holder.send(SIGSTOP)
		defer { holder.kill() }

		let start = Date()
		let child = try HelperProcess.start(["write", name, "unwritten", "1", "return"])
		let status = child.waitUntilExit(timeout: hangDeadline)
		let took = Date().timeIntervalSince(start)

		print("exit with a held lock took \(String(format: "%.2f", took)) s")
		#expect(status == 0, "exited normally")
		#expect(took < lockWaitBound, "exit took \(took) s")
		#expect(child.errorOutputText.contains("unwritten"), "the diagnostic names the key: \(child.errorOutputText)")
	}
}

@Suite("Who held the lock")
struct LockHolderMessageTests {
	/// This process's own slow flush is what kept the lock: the message must not blame another process.
	@Test func aSlowFlushOfThisProcessIsNotBlamedOnAnother() throws {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let started = DispatchSemaphore(value: 0)
		Suite.install(SlowFileSystem(delay: 1, started: started), for: suite.defaults)
		defer { Suite.install(POSIXFileSystem(), for: suite.defaults) }
		let file = try #require(Suite.of(suite.defaults).file)

		Defaults[key] = 1
		let slowFlush = Thread { try? file.flush() }
		slowFlush.start()
		started.wait()
		Defaults[key] = 2
		var thrown: Defaults.PersistenceError?
		do {
			try file.flush(waitingUntil: .now + .milliseconds(100))
		} catch {
			thrown = error
		}

		let message = try #require(thrown).description
		#expect(!message.contains("another process held"), "\(message)")
		#expect(message.contains("this process"), "\(message)")
		try Defaults.flush(suite: suite.defaults)
	}
}
