import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// Trials per signal and delay; raise for a long run: `DEFAULTS_SIGNAL_TRIALS=100 swift test --filter SignalFlush`.
private let signalTrials = ProcessInfo.processInfo.environment["DEFAULTS_SIGNAL_TRIALS"].flatMap(Int.init) ?? 10

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

	/// The parent sends the signal as soon as it reads that the setter returned, as `kill`, `systemctl stop` or Ctrl-C would.
	@Test(arguments: signals.indices)
	func aSignalFromAnotherProcessFlushesToo(_ signalIndex: Int) throws {
		let signal = Self.signals[signalIndex]
		let suite = TestSuite()
		var persisted = 0
		for trial in 0..<signalTrials {
			let child = try HelperProcess.start(["write-wait", suite.name, "t\(trial)", "\(trial)"])
			#expect(child.waitForLine(timeout: 10) { $0 == "written" } != nil)
			child.send(signal.number)
			#expect(child.waitUntilExit(timeout: 20) != nil)
			#expect(child.terminatingSignal == signal.number)
			if suite.fileContents()?["t\(trial)"] as? Int == trial {
				persisted += 1
			}
		}

		#expect(persisted == signalTrials, "SIG\(signal.name) from another process: \(persisted)/\(signalTrials) persisted")
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
