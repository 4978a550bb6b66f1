import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// Trials per case; raise for a long run: `DEFAULTS_BIG_SUITE_TRIALS=10 swift test --filter BigSuite`.
private let bigSuiteTrials = TestEnvironment.count("DEFAULTS_BIG_SUITE_TRIALS", default: 3)

/**
A 20 MB suite (mostly `Data`, well under the 64 MiB a file may have) keeps
every process's writes. Encoding such a file took Foundation's encoder
seconds, under the suite's lock, so other processes gave up waiting for the
lock, and so did the flushes at exit and on a termination signal.

The test process never opens these suites through `UserDefaults`: Foundation
would load the whole file, byte by byte.
*/
@Suite("A 20 MB suite keeps every process's writes", .serialized)
struct BigSuiteTests {
	/// Two processes writing different keys, each flushed at its exit, lose neither.
	@Test(arguments: [false, true])
	func twoWritersOfDifferentKeysLoseNothing(whileAThirdFlushes: Bool) throws {
		var kept = 0
		for trial in 0..<bigSuiteTrials {
			let suite = try BigSuite()
			let flusher = whileAThirdFlushes ? try suite.startFlusher() : nil
			let writers = try ["first", "second"].map { name in
				try HelperProcess.start(["write", suite.name, name, "\(trial)", "return"])
			}
			for writer in writers {
				#expect(writer.waitUntilExit(timeout: 120) == 0, "\(writer.errorOutputText)")
			}

			let flusherKeys = try flusher.map(suite.stop) ?? []
			let contents = try suite.contents()
			let missing = (["first", "second"] + flusherKeys).filter { contents[$0] == nil }
			#expect(suite.blobsAreIntact(contents))
			if missing.isEmpty, contents["first"] == .integer(trial), contents["second"] == .integer(trial) {
				kept += 1
			} else {
				print("two writers\(whileAThirdFlushes ? " while a third flushes" : ""), trial \(trial): lost \(missing)")
			}
		}

		#expect(kept == bigSuiteTrials, "two writers\(whileAThirdFlushes ? " while a third flushes" : ""): every write kept in \(kept)/\(bigSuiteTrials)")
	}

	/// SIGTERM 10 ms after a small write: the signal's flush writes it before the process ends.
	@Test(arguments: [false, true])
	func aSignalJustAfterASmallWriteKeepsIt(whileAnotherFlushes: Bool) throws {
		var kept = 0
		for trial in 0..<bigSuiteTrials {
			let suite = try BigSuite()
			let flusher = whileAnotherFlushes ? try suite.startFlusher() : nil
			let child = try HelperProcess.start(["write-signal", suite.name, "small", "\(trial)", "TERM", "10"])
			#expect(child.waitUntilExit(timeout: 120) != nil)
			#expect(child.terminatingSignal == SIGTERM, "\(child.errorOutputText)")
			let flusherKeys = try flusher.map(suite.stop) ?? []
			let contents = try suite.contents()
			let missing = (["small"] + flusherKeys).filter { contents[$0] == nil }
			#expect(suite.blobsAreIntact(contents))
			if missing.isEmpty, contents["small"] == .integer(trial) {
				kept += 1
			} else {
				print("SIGTERM\(whileAnotherFlushes ? " while another process flushes" : ""), trial \(trial): lost \(missing)")
			}
		}

		#expect(kept == bigSuiteTrials, "SIGTERM 10 ms after a write\(whileAnotherFlushes ? " while another process flushes" : ""): kept in \(kept)/\(bigSuiteTrials)")
	}
}

/// A suite whose file holds 20 MB: five 4 MB `Data` values and a few small ones; its files are removed when it goes.
private final class BigSuite {
	let name = "defaults-tests.BigSuite.\(UUID().uuidString)"
	static let blobs = (0..<5).map { index in Data((0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) }) }

	init() throws {
		var contents: [String: PropertyListValue] = [:]
		for (index, blob) in Self.blobs.enumerated() {
			contents["blob\(index)"] = .data(blob)
		}

		for index in 0..<20 {
			contents["setting\(index)"] = .integer(index)
		}

		try PropertyListFileContents.encode(contents, for: "test").write(to: TestEnvironment.fileURL(ofSuite: name))
	}

	deinit {
		TestEnvironment.removeFiles(ofSuite: name)
		// Temporary files of a process killed while it wrote.
		let folder = TestEnvironment.configHome
		for file in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where file.hasPrefix(".\(name).plist.") && file.hasSuffix(".tmp") {
			try? FileManager.default.removeItem(at: folder.appendingPathComponent(file))
		}
	}

	/// The file's values, read with the library's reader.
	func contents() throws -> [String: PropertyListValue] {
		let data = FileManager.default.contents(atPath: TestEnvironment.fileURL(ofSuite: name).path)
		guard case .contents(let contents) = PropertyListFileContents.decode(data) else {
			throw CocoaError(.fileReadCorruptFile)
		}

		return contents
	}

	func blobsAreIntact(_ contents: [String: PropertyListValue]) -> Bool {
		Self.blobs.indices.allSatisfy { contents["blob\($0)"] == .data(Self.blobs[$0]) }
	}

	/// A process that writes a key of its own and flushes, every 20 ms, once it has flushed twice.
	func startFlusher() throws -> ChildProcess {
		let flusher = try HelperProcess.start(["write-flush-loop", name, "flusher", "20"])
		#expect(flusher.waitForLine(timeout: 120) { $0 == "set 2" } != nil, "the flusher started")
		return flusher
	}

	/// Stops the flusher with SIGTERM; returns the keys it wrote (each setter returned, so each must be on disk).
	func stop(_ flusher: ChildProcess) throws -> [String] {
		flusher.send(SIGTERM)
		#expect(flusher.waitUntilExit(timeout: 120) != nil)
		return flusher.receivedLines.compactMap { $0.hasPrefix("set ") ? "flusher\($0.dropFirst(4))" : nil }
	}
}
