import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

@Suite("Durable writes", .serialized)
struct DurabilityTests {
	@Test func writesReachDiskWithoutAnyCall() {
		let suite = TestSuite()
		let key = Defaults.Key<String>(suite.keyName(), default: "", suite: suite.defaults)
		Defaults[key] = "saved"

		// How soon is the benchmark's to say (the coalescing window is 50 ms); here: without any call, nothing but time passing.
		let arrived = suite.wait(timeout: 20) { suite.fileContents()?[key.name] as? String == "saved" }
		#expect(arrived)
	}

	@Test func flushReturnsWithTheFileComplete() throws {
		let suite = TestSuite()
		let keys = (0..<20).map { _ in Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults) }
		for (index, key) in keys.enumerated() {
			Defaults[key] = index
		}

		try Defaults.flush(suite: suite.defaults)

		let contents = try #require(suite.fileContents())
		for (index, key) in keys.enumerated() {
			#expect(contents[key.name] as? Int == index)
		}

		let data = try #require(FileManager.default.contents(atPath: suite.fileURL.path))
		#expect(data.starts(with: Data("bplist00".utf8)), "a binary property list keeps sub-second dates and Floats")
		let leftovers = try FileManager.default.contentsOfDirectory(atPath: TestEnvironment.configHome.path)
			.filter { $0.hasPrefix(".\(suite.name)") && $0.hasSuffix(".tmp") }
		#expect(leftovers.isEmpty)
	}

	@Test func removalsAndResetsPersist() throws {
		let suite = TestSuite()
		let kept = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let removed = Defaults.Key<String?>(suite.keyName(), suite: suite.defaults)
		let reset = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		Defaults[kept] = 1
		Defaults[removed] = "x"
		Defaults[reset] = 2
		try Defaults.flush(suite: suite.defaults)

		Defaults[removed] = nil
		reset.reset()
		try Defaults.flush(suite: suite.defaults)

		let contents = try #require(suite.fileContents())
		#expect(contents[kept.name] as? Int == 1)
		#expect(contents[removed.name] == nil)
		#expect(contents[reset.name] == nil)
	}

	@Test func fileIsPrivate() throws {
		let suite = TestSuite()
		Defaults[Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)] = 1
		try Defaults.flush(suite: suite.defaults)
		let attributes = try FileManager.default.attributesOfItem(atPath: suite.fileURL.path)
		#expect((attributes[.posixPermissions] as? Int) == 0o600)
	}

	@Test func missingFoldersAreCreatedPrivate() throws {
		let root = TestEnvironment.configHome.appendingPathComponent("nested-\(UUID().uuidString)")
		let file = root.appendingPathComponent("inner/suite.plist")
		defer { try? FileManager.default.removeItem(at: root) }

		try POSIXFileSystem().replaceAtomically(file, with: Data("x".utf8))

		for folder in [root, root.appendingPathComponent("inner")] {
			let attributes = try FileManager.default.attributesOfItem(atPath: folder.path)
			#expect((attributes[.posixPermissions] as? Int) == 0o700)
		}
	}

	@Test func writeThroughIsDurableBeforeTheSetterReturns() throws {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		Defaults.writeMode = .writeThrough
		defer { Defaults.writeMode = .coalesced(milliseconds: 50) }

		Defaults[key] = 42

		#expect(suite.fileContents()?[key.name] as? Int == 42)
	}

	/// The mode is kept as one word, which every write reads without a lock: each mode reads back as set.
	@Test func everyWriteModeReadsBackAsSet() {
		for mode in [Defaults.WriteMode.writeThrough, .coalesced(milliseconds: 0), .coalesced(milliseconds: 50), .coalesced(milliseconds: -5), .coalesced(milliseconds: .max)] {
			#expect(Defaults.WriteMode(word: mode.word) == mode, "\(mode)")
		}

		#expect(Defaults.WriteMode(word: Defaults.WriteMode.coalesced(milliseconds: .min).word) == .coalesced(milliseconds: .min + 1), "still a window of no wait, never write-through")
	}

	@Test func subSecondDatesAndFloatsSurviveARestart() throws {
		let suite = TestSuite()
		let date = Defaults.Key<Date>(suite.keyName(), default: .distantPast, suite: suite.defaults)
		let float = Defaults.Key<Float>(suite.keyName(), default: 0, suite: suite.defaults)
		let precise = Date(timeIntervalSince1970: 1_700_000_000.123)
		Defaults[date] = precise
		Defaults[float] = 0.1

		let domain = try suite.domainReadByAnotherProcess()

		#expect((domain[date.name] as? Date) == precise)
		#expect((domain[float.name] as? Float) == 0.1)
	}
}

@Suite("Several writers on one suite")
struct MergeTests {
	/// Writes the file as another process would: read, change, replace.
	private func writeAsAnotherProcess(_ suite: TestSuite, _ change: (inout [String: Any]) -> Void) throws {
		var contents = suite.fileContents() ?? [:]
		change(&contents)
		let data = try PropertyListSerialization.data(fromPropertyList: contents, format: .binary, options: 0)
		try POSIXFileSystem().withExclusiveLock(for: suite.fileURL) { () throws(Defaults.PersistenceError) in
			try POSIXFileSystem().replaceAtomically(suite.fileURL, with: data)
		}
	}

	/// A process that only reads keeps the file as its bytes, not as values: each change another process makes is still told exactly, and its first write keeps them all.
	@Test func aProcessThatOnlyReadsHearsEachChangeExactlyAndItsFirstWriteKeepsThem() async throws {
		let suite = TestSuite()
		let (a, b, c, d) = (suite.keyName("a"), suite.keyName("b"), suite.keyName("c"), suite.keyName("d"))
		try writeAsAnotherProcess(suite) { $0[a] = 1; $0[b] = 2 }
		let first = Defaults.Key<Int>(a, default: 0, suite: suite.defaults)
		#expect(Defaults[first] == 1)
		let batch = Locked<Set<String>>([])
		let observation = Defaults.observe(suite: suite.defaults) { @Sendable change in
			guard [a, b, c, d].contains(change.name) else {
				return
			}

			batch.withLock { _ = $0.insert(change.name) }
		}
		defer { observation.invalidate() }

		func settle(_ expected: Set<String>) async {
			#expect(await eventually { batch.withLock { $0 == expected } }, "heard \(batch.withLock { $0 }), expected \(expected)")
			batch.withLock { $0 = [] }
		}

		try writeAsAnotherProcess(suite) { $0[b] = 3; $0[c] = 4 }
		await settle([b, c])
		try writeAsAnotherProcess(suite) { $0[a] = 5; $0[b] = nil }
		await settle([a, b])
		#expect(Defaults[first] == 5)
		#expect(suite.defaults.object(forKey: b) == nil && suite.defaults.object(forKey: c) as? Int == 4)

		suite.defaults[Defaults.Key<Int>(d, default: 0, suite: suite.defaults)] = 6
		try Defaults.flush(suite: suite.defaults)
		let contents = try #require(suite.fileContents())
		#expect(contents[a] as? Int == 5 && contents[b] == nil && contents[c] as? Int == 4 && contents[d] as? Int == 6, "\(contents)")
		#expect(batch.withLock { $0 } == [d], "only this process's own write is heard once more")
	}

	@Test func aFlushKeepsKeysOtherProcessesWrote() throws {
		let suite = TestSuite()
		let mine = Defaults.Key<Int>(suite.keyName("mine"), default: 0, suite: suite.defaults)
		let theirs = Defaults.Key<Int>(suite.keyName("theirs"), default: 0, suite: suite.defaults)
		Defaults[mine] = 1
		try Defaults.flush(suite: suite.defaults)

		try writeAsAnotherProcess(suite) { $0[theirs.name] = 2 }
		Defaults[mine] = 3
		try Defaults.flush(suite: suite.defaults)

		let contents = try #require(suite.fileContents())
		#expect(contents[mine.name] as? Int == 3)
		#expect(contents[theirs.name] as? Int == 2)
		#expect(suite.wait(timeout: 1) { Defaults[theirs] == 2 }, "the other process's key reaches this process too")
	}

	@Test func anotherProcessesRemovalIsKeptAndSeen() throws {
		let suite = TestSuite()
		let shared = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let mine = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		Defaults[shared] = 1
		try Defaults.flush(suite: suite.defaults)

		try writeAsAnotherProcess(suite) { $0[shared.name] = nil }
		Defaults[mine] = 5
		try Defaults.flush(suite: suite.defaults)

		#expect(suite.fileContents()?[shared.name] == nil)
		#expect(suite.wait(timeout: 1) { Defaults[shared] == 0 })
	}

	@Test func forTheSameKeyTheLastFlushWins() throws {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		try writeAsAnotherProcess(suite) { $0[key.name] = 1 }
		Defaults[key] = 2
		try Defaults.flush(suite: suite.defaults)
		#expect(suite.fileContents()?[key.name] as? Int == 2)
	}
}
