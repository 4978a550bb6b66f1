import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

@Suite("A file too large for a preferences file")
struct FileSizeLimitTests {
	/// A file of `size` bytes at `url` that takes no space: a hole, made with `ftruncate`.
	private static func makeSparseFile(at url: URL, size: Int64) throws {
		let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
		try #require(descriptor >= 0)
		defer { close(descriptor) }
		try #require(ftruncate(descriptor, off_t(size)) == 0)
	}

	private static func asides(of suite: TestSuite) -> [URL] {
		((try? FileManager.default.contentsOfDirectory(atPath: TestEnvironment.configHome.path)) ?? [])
			.filter { $0.hasPrefix("\(suite.name).unreadable-") }
			.map { TestEnvironment.configHome.appendingPathComponent($0) }
	}

	private static func size(of url: URL) -> Int64? {
		var info = stat()
		return stat(url.path, &info) == 0 ? Int64(info.st_size) : nil
	}

	@Test func theFileSystemRefusesItBySizeBeforeReading() throws {
		let url = TestEnvironment.configHome.appendingPathComponent("too-large-\(UUID().uuidString).plist")
		defer { unlink(url.path) }
		let limit = FileLimits.maximumFileSize
		try Self.makeSparseFile(at: url, size: limit + 1)

		#expect(throws: Defaults.PersistenceError.fileTooLarge(path: url.path, size: limit + 1, limit: limit)) {
			_ = try POSIXFileSystem().read(url)
		}
	}

	@Test func aSuiteOpenedOnOneIsSetAsideUnreadAndStartsEmpty() throws {
		let suite = TestSuite()
		defer { Self.asides(of: suite).forEach { unlink($0.path) } }
		let size = FileLimits.maximumFileSize + 1
		try Self.makeSparseFile(at: suite.fileURL, size: size)

		var opened: Defaults.Key<Int>?
		let reported = diagnostics {
			opened = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		}
		let key = try #require(opened)
		#expect(Defaults[key] == 0)

		#expect(reported.map(\.kind) == [.unreadableFile])
		#expect(reported.first?.message.contains("\(size) bytes") == true, "\(reported)")
		let asides = Self.asides(of: suite)
		#expect(asides.count == 1)
		#expect(asides.first.flatMap(Self.size) == size, "the file is kept for the user, never deleted")

		Defaults[key] = 7
		try Defaults.flush(suite: suite.defaults)
		#expect(suite.fileContents()?[key.name] as? Int == 7)
	}

	@Test func oneThatAppearsLaterIsSetAsideByTheNextFlush() throws {
		let suite = TestSuite()
		defer { Self.asides(of: suite).forEach { unlink($0.path) } }
		let before = Defaults.Key<Int>(suite.keyName("before"), default: 0, suite: suite.defaults)
		let after = Defaults.Key<Int>(suite.keyName("after"), default: 0, suite: suite.defaults)
		Defaults[before] = 1
		try Defaults.flush(suite: suite.defaults)

		let size = FileLimits.maximumFileSize + 1
		let replacement = TestEnvironment.configHome.appendingPathComponent(".\(suite.name).large")
		try Self.makeSparseFile(at: replacement, size: size)
		try #require(rename(replacement.path, suite.fileURL.path) == 0)
		Defaults[after] = 2
		let reported = try diagnostics {
			try Defaults.flush(suite: suite.defaults)
		}

		#expect(reported.map(\.kind) == [.unreadableFile])
		#expect(reported.first?.message.contains("\(size) bytes") == true, "\(reported)")
		#expect(Self.asides(of: suite).first.flatMap(Self.size) == size)
		let contents = try #require(suite.fileContents())
		#expect(contents[before.name] as? Int == 1, "rewritten from the values in memory")
		#expect(contents[after.name] as? Int == 2)
	}
}
