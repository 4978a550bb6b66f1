import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// Trials per signal and delay; raise for a long run: `DEFAULTS_SIGNAL_TRIALS=100 swift test --filter SignalFlush`.
private let signalTrials = TestEnvironment.count("DEFAULTS_SIGNAL_TRIALS", default: 10)

@Suite("Termination signals: a write whose setter returned is on disk", .serialized)
struct SignalFlushTests {
	static let signals: [(name: String, number: Int32)] = [("TERM", SIGTERM), ("INT", SIGINT), ("HUP", SIGHUP)]

	/// The child sends itself the signal `delay` ms after the setter returned (0: right after it).
	@Test(arguments: signals.indices, [0, 5])
	func aWriteJustBeforeTheSignalIsPersisted(_ signalIndex: Int, delay: Int) throws {
		let signal = Self.signals[signalIndex]
		let suite = TestSuite()
		var persisted = 0
		for trial in 0..<signalTrials {
			let child = try HelperProcess.start(["write-signal", suite.name, "t\(trial)", "\(trial)", signal.name, "\(delay)"])
			let status = child.waitUntilExit(timeout: 20)
			#expect(status != nil, "SIG\(signal.name): the process ended")
			#expect(child.terminatingSignal == signal.number, "killed by SIG\(signal.name), as without the library (status \(status ?? -1))")
			#expect(!child.receivedLines.contains("alive"))
			if suite.fileContents()?["t\(trial)"] as? Int == trial {
				persisted += 1
			}
		}

		print("SIG\(signal.name) \(delay) ms after a write: \(persisted)/\(signalTrials) persisted")
		#expect(persisted == signalTrials, "SIG\(signal.name) \(delay) ms after a write: \(persisted)/\(signalTrials) persisted")
	}

	/// Calls `SA_RESTART` does not restart after a handler: each returns early if the application sees the signal at all.
	static let blockingCalls = ["sleep", "poll", "select", "epoll"]

	/// The parent sends the signal as soon as it reads that the setter returned, as `kill`, `systemctl stop` or Ctrl-C would: the call the application is blocked in never returns.
	@Test(arguments: signals.indices, blockingCalls)
	func aSignalFromAnotherProcessFlushesUnseen(_ signalIndex: Int, call: String) throws {
		let signal = Self.signals[signalIndex]
		let suite = TestSuite()
		var persisted = 0
		var unseen = 0
		for trial in 0..<signalTrials {
			let child = try HelperProcess.start(["write-block", suite.name, "t\(trial)", "\(trial)", call])
			#expect(child.waitForLine(timeout: 10) { $0 == "written" } != nil)
			child.send(signal.number)
			#expect(child.waitUntilExit(timeout: 20) != nil)
			if child.terminatingSignal == signal.number, !child.receivedLines.contains("returned") {
				unseen += 1
			}
			if suite.fileContents()?["t\(trial)"] as? Int == trial {
				persisted += 1
			}
		}

		print("SIG\(signal.name) during \(call): \(unseen)/\(signalTrials) unseen, \(persisted)/\(signalTrials) persisted")
		#expect(unseen == signalTrials, "SIG\(signal.name) during \(call): \(unseen)/\(signalTrials) killed by it with the call never returning")
		#expect(persisted == signalTrials, "SIG\(signal.name) during \(call): \(persisted)/\(signalTrials) persisted")
	}

	/// Signals reaching several threads at once, the same one or all three kinds: one flush, then the process dies by one of them; no thread's sleep returns.
	@Test(arguments: [["TERM", "TERM", "TERM"], ["TERM", "INT", "HUP"]])
	func signalsOnSeveralThreadsFlushOnce(_ names: [String]) throws {
		let suite = TestSuite()
		let numbers = Set(names.map { name in Self.signals.first { $0.name == name }!.number })
		var unseen = 0
		var persisted = 0
		for trial in 0..<signalTrials {
			let child = try HelperProcess.start(["write-signal-threads", suite.name, "t\(trial)", "\(trial)"] + names)
			#expect(child.waitUntilExit(timeout: 20) != nil)
			if let signal = child.terminatingSignal, numbers.contains(signal), child.receivedLines.isEmpty {
				unseen += 1
			}
			if suite.fileContents()?["t\(trial)"] as? Int == trial {
				persisted += 1
			}
		}

		#expect(unseen == signalTrials, "\(names): \(unseen)/\(signalTrials) killed by one of them with no thread running on")
		#expect(persisted == signalTrials, "\(names): \(persisted)/\(signalTrials) persisted")
	}

	/// A signal that arrives while the application's own flush holds the suite's locks waits for that flush, and then the process ends: every write whose setter returned is on disk.
	@Test func aSignalDuringAnExplicitFlushKeepsEveryWrite() throws {
		let suite = TestSuite()
		var complete = 0
		for trial in 0..<signalTrials {
			let child = try HelperProcess.start(["write-flush-loop", suite.name, "t\(trial)-"])
			#expect(child.waitForLine(timeout: 10) { $0 == "set 20" } != nil)
			child.send(SIGTERM)
			#expect(child.waitUntilExit(timeout: 20) != nil)
			#expect(child.terminatingSignal == SIGTERM)
			let contents = suite.fileContents() ?? [:]
			let set = child.receivedLines.compactMap { $0.hasPrefix("set ") ? Int($0.dropFirst(4)) : nil }
			let missing = set.filter { contents["t\(trial)-\($0)"] as? Int != $0 }
			if missing.isEmpty {
				complete += 1
			} else {
				print("SIGTERM during flushes: trial \(trial) lost \(missing) of \(set.count) writes")
			}
		}

		#expect(complete == signalTrials, "SIGTERM during flushes: every write kept in \(complete)/\(signalTrials)")
	}

	/// A second signal while the first one's flush waits for another process's lock waits for that flush too: the write is kept, and the process dies by the first.
	@Test func aSecondSignalDuringTheFlushWaitsForIt() throws {
		let suite = TestSuite()
		let holder = try HelperProcess.start(["hold-lock", suite.name])
		#expect(holder.waitForLine(timeout: 10) { $0 == "locked" } != nil)
		let child = try HelperProcess.start(["write-block", suite.name, "value", "5", "sleep"])
		#expect(child.waitForLine(timeout: 10) { $0 == "written" } != nil)

		child.send(SIGTERM)
		// Ordering only: the flush has started and is waiting for the lock.
		Thread.sleep(forTimeInterval: 0.3)
		child.send(SIGINT)
		child.send(SIGHUP)
		Thread.sleep(forTimeInterval: 0.1)
		holder.kill()

		#expect(child.waitUntilExit(timeout: 20) != nil)
		#expect(child.terminatingSignal == SIGTERM, "killed by the first signal (status \(child.waitUntilExit()))")
		#expect(!child.receivedLines.contains("returned"))
		#expect(suite.fileContents()?["value"] as? Int == 5, "the flush finished once the lock was free")
	}

	/// Another thread of the application calling `exit()` while the signal's flush runs does not turn the signal into a normal exit.
	@Test func exitDuringTheFlushStillEndsByTheSignal() throws {
		let suite = TestSuite()
		var endedBySignal = 0
		for trial in 0..<signalTrials {
			let holder = try HelperProcess.start(["hold-lock", suite.name])
			defer { holder.kill() }
			#expect(holder.waitForLine(timeout: 10) { $0 == "locked" } != nil)
			let child = try HelperProcess.start(["write-exit-later", suite.name, "t\(trial)", "\(trial)", "500"])
			#expect(child.waitForLine(timeout: 10) { $0 == "written" } != nil)

			child.send(SIGTERM)
			// Ordering only: the other thread calls exit() while the flush waits for the lock, well within the flush's limit.
			#expect(child.waitForLine(timeout: 10) { $0 == "exiting" } != nil)
			Thread.sleep(forTimeInterval: 0.1)
			holder.kill()

			#expect(child.waitUntilExit(timeout: 20) != nil)
			#expect(!child.receivedLines.contains("returned"))
			#expect(suite.fileContents()?["t\(trial)"] as? Int == trial)
			if child.terminatingSignal == SIGTERM {
				endedBySignal += 1
			}
		}

		#expect(endedBySignal == signalTrials, "exit() during the flush: killed by SIGTERM in \(endedBySignal)/\(signalTrials)")
	}

	/// A flush that cannot finish (another process keeps the lock) does not keep the process alive: it dies by the signal after the exit flush limit, and says what it lost.
	@Test func aFlushThatCannotFinishStillEndsTheProcess() throws {
		let suite = TestSuite()
		let holder = try HelperProcess.start(["hold-lock", suite.name])
		defer { holder.kill() }
		#expect(holder.waitForLine(timeout: 10) { $0 == "locked" } != nil)
		let child = try HelperProcess.start(["write-block", suite.name, "unwritten", "5", "sleep"])
		#expect(child.waitForLine(timeout: 10) { $0 == "written" } != nil)

		child.send(SIGTERM)

		#expect(child.waitUntilExit(timeout: 20) != nil)
		#expect(child.terminatingSignal == SIGTERM)
		#expect(!child.receivedLines.contains("returned"))
		#expect(child.errorOutputText.contains("unwritten"), "the diagnostic names the key: \(child.errorOutputText)")
	}

	/// An application that handles SIGTERM itself keeps its behaviour, whether it installed its handler before or after the library's first write.
	@Test(arguments: ["BEFORE", "AFTER"])
	func anApplicationsOwnHandlerIsLeftAlone(_ when: String) throws {
		let suite = TestSuite()
		let child = try HelperProcess.start(["own-handler", suite.name, "value", "7", when])
		#expect(child.waitForLine(timeout: 10) { $0 == "ready" } != nil)
		child.send(SIGTERM)

		#expect(child.waitUntilExit(timeout: 20) == 3, "the application's handler decided how to exit")
		#expect(child.terminatingSignal == nil)
		#expect(child.receivedLines.contains("handled"))
		#expect(suite.fileContents()?["value"] as? Int == 7, "its exit() flushed the write")
	}

	@Test func anIgnoredSignalStaysIgnored() throws {
		let suite = TestSuite()
		let child = try HelperProcess.start(["ignore-term", suite.name, "value", "3"])

		#expect(child.waitUntilExit(timeout: 20) == 0)
		#expect(child.receivedLines.contains("survived"))
		#expect(suite.fileContents()?["value"] as? Int == 3)
	}
}
