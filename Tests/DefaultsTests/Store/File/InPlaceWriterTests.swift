import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

private let inPlaceMilliseconds = TestEnvironment.count("DEFAULTS_IN_PLACE_MS", default: 1500)

/// Foundation's own `UserDefaults` saves a suite in place, without the lock: a flush that catches the file half-written must wait for it, not set it aside.
@Suite("A file another program rewrites in place is not set aside mid-write")
struct InPlaceWriterTests {
	@Test func flushesDuringInPlaceRewritesSetNothingAside() throws {
		let suite = TestSuite()
		let key = Defaults.Key<Int>("flushed", default: 0, suite: suite.defaults)
		Defaults[key] = -1
		try Defaults.flush(suite: suite.defaults)
		let folder = TestEnvironment.configHome.path
		defer {
			for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix("\(suite.name).unreadable-") {
				unlink("\(folder)/\(name)")
			}
		}

		let writer = try HelperProcess.start(["rewrite-in-place", suite.name, "\(inPlaceMilliseconds)"])
		var flushes = 0
		var failures: [String] = []
		let reported = diagnostics {
			while !writer.hasExited {
				Defaults[key] = flushes
				do {
					try Defaults.flush(suite: suite.defaults)
				} catch {
					failures.append("\(error)")
				}
				flushes += 1
			}
		}

		let asides = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("\(suite.name).unreadable-") }
		print("measured: \(flushes) flushes during \(writer.receivedLines) in place: \(asides.count) set aside, \(reported.filter { $0.kind == .unreadableFile }.count) unreadable-file diagnostics")
		#expect(flushes > 10)
		#expect(failures.isEmpty)
		#expect(asides.isEmpty, "a file being written is waited for, not set aside: \(asides.count) set aside, e.g. \(asides.prefix(2))")
		#expect(reported.filter { $0.kind == .unreadableFile }.count == 0, "\(reported.prefix(2))")
	}

	@Test func theSameBrokenBytesAreSetAsideOncePerBurst() throws {
		let suite = TestSuite()
		let key = Defaults.Key<Int>("flushed", default: 0, suite: suite.defaults)
		let folder = TestEnvironment.configHome.path
		defer {
			for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix("\(suite.name).unreadable-") {
				unlink("\(folder)/\(name)")
			}
		}

		// Claimed on every thread: under load the file watcher's thread, not the flush, may be the one that meets the broken bytes.
		let name = suite.name
		let (_, reported) = try DiagnosticReporter.claiming(where: { $0.message.contains(name) }) {
			for round in 0..<5 {
				// A program that keeps saving the same broken file.
				try Data("not a property list".utf8).write(to: suite.fileURL)
				Defaults[key] = round
				try Defaults.flush(suite: suite.defaults)
			}
		}

		let asides = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("\(suite.name).unreadable-") }
		#expect(asides.count == 1)
		#expect(reported.filter { $0.kind == .unreadableFile }.count == 5, "each failure is still reported")
		#expect(suite.fileContents()?["flushed"] as? Int == 4)
	}
}
