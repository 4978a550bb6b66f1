import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/**
The library never writes a suite file larger than it reads back (64 MiB):
before, such a write succeeded without a word, and the next process set the
file aside and started with an empty suite (3 of 3).
*/
@Suite("The 64 MiB limit holds for writes too")
struct SizeLimitTests {
	private static let megabyte = 1024 * 1024

	private static func blob(megabytes: Int) -> Data {
		Data(repeating: 0xA5, count: megabytes * megabyte)
	}

	@Test func aWriteThatWouldPassTheLimitIsRefusedAndChangesNothing() throws {
		let suite = TestSuite()
		let first = Defaults.Key<Data>(suite.keyName("first"), default: Data(), suite: suite.defaults)
		let second = Defaults.Key<Data>(suite.keyName("second"), default: Data(), suite: suite.defaults)
		let small = Defaults.Key<Int>(suite.keyName("small"), default: 0, suite: suite.defaults)
		Defaults[first] = Self.blob(megabytes: 40)
		Defaults[small] = 1
		try Defaults.flush(suite: suite.defaults)
		let fileBefore = try Data(contentsOf: suite.fileURL)
		let changes = Recorder<Int>()
		let observation = Defaults.observe(second, options: []) { changes.append($0.newValue.count) }
		defer { observation.invalidate() }

		let reported = try diagnostics {
			Defaults[second] = Self.blob(megabytes: 30)
			try Defaults.flush(suite: suite.defaults)
		}

		// The 64 MiB limit is the default size budget on Linux.
		#expect(reported.map(\.kind) == [.sizeBudgetExceeded], "\(reported)")
		#expect(reported.first?.key == second.name)
		#expect(Defaults[second].isEmpty, "the value stays as it was")
		#expect(changes.values.isEmpty, "observers hear nothing of a refused write")
		#expect(try Data(contentsOf: suite.fileURL) == fileBefore, "the file stays as it was")

		// The suite goes on: smaller writes, and a write that makes room, are taken.
		Defaults[small] = 2
		Defaults[first] = Self.blob(megabytes: 1)
		Defaults[second] = Self.blob(megabytes: 30)
		try Defaults.flush(suite: suite.defaults)
		let reread = try #require(suite.fileContents())
		#expect((reread[second.name] as? Data)?.count == 30 * Self.megabyte)
		#expect(reread[small.name] as? Int == 2)
	}

	@Test func anImportThatWouldPassTheLimitThrowsAndChangesNothing() throws {
		let suite = TestSuite()
		let kept = Defaults.Key<Int>(suite.keyName("kept"), default: 0, suite: suite.defaults)
		Defaults[kept] = 7
		try Defaults.flush(suite: suite.defaults)
		let fileBefore = try Data(contentsOf: suite.fileURL)
		let settings = try PropertyListSerialization.data(
			fromPropertyList: ["huge": Self.blob(megabytes: 65), kept.name: 8],
			format: .binary,
			options: 0
		)

		#expect {
			try Defaults.importSettings(settings, into: suite.defaults)
		} throws: { error in
			// The 64 MiB limit is the default size budget on Linux, for the suite and for each value.
			guard case .sizeBudgetExceeded("huge", let size, let limit)? = error as? Defaults.SettingsTransferError else {
				return false
			}

			return size > limit && Int64(limit) == FileLimits.maximumFileSize
		}
		#expect(Defaults[kept] == 7)
		#expect(try Data(contentsOf: suite.fileURL) == fileBefore)
	}

	/// Another process filled the suite meanwhile: this process's write, fine on its own, is refused (at the setter or at its flush), and nothing is lost.
	@Test func writesOfTwoProcessesThatTogetherPassTheLimitLeaveAReadableFile() async throws {
		let suite = TestSuite()
		let mine = Defaults.Key<Data>(suite.keyName("mine"), default: Data(), suite: suite.defaults)
		let theirs = suite.keyName("theirs")
		Defaults[Defaults.Key<Int>(suite.keyName("before"), default: 0, suite: suite.defaults)] = 1
		try Defaults.flush(suite: suite.defaults)

		let writer = try HelperProcess.run(["write-blob", suite.name, theirs, "40"])
		#expect(writer.status == 0, "\(writer.lines)")
		var flushError: Defaults.PersistenceError?
		let reported = diagnostics {
			Defaults[mine] = Self.blob(megabytes: 30)
			do throws(Defaults.PersistenceError) {
				try Defaults.flush(suite: suite.defaults)
			} catch {
				flushError = error
			}
		}

		// At the setter when the watcher saw the other process's write (the default budget refuses it), else at a flush, after which
		// `flush()` throws: this one (its diagnostic captured here), or the coalescing timer's (its diagnostic on the flush's own thread).
		let kinds = reported.map(\.kind)
		#expect(kinds == [.sizeBudgetExceeded] || kinds == [.fileSizeLimitExceeded] || kinds.isEmpty, "\(reported)")
		if kinds != [.sizeBudgetExceeded] {
			guard case .fileWouldBeTooLarge? = flushError else {
				Issue.record("a flush whose change was refused returned \(String(describing: flushError))")
				return
			}
		} else {
			#expect(flushError == nil)
		}
		let contents = try #require(suite.fileContents(), "the file reads back")
		#expect((contents[theirs] as? Data)?.count == 40 * Self.megabyte, "the other process's value is kept")
		#expect(contents[mine.name] == nil)
		#expect(await eventually { Defaults[mine].isEmpty }, "the refused value is the file's again")
	}
}
