import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

private struct Refused: Error {}

/// Writes `value` under `key` from another thread of this process, and waits until it is written (not flushed): a writer the migration knows nothing about.
private func writeFromAnotherThread(_ value: Int, to key: Defaults.Key<Int>) {
	let written = DispatchSemaphore(value: 0)
	Thread {
		Defaults[key] = value
		written.signal()
	}.start()
	#expect(written.wait(timeout: .now() + 60) == .success)
}

@Suite("Migrations: run once, in order, all or nothing, recorded in the suite")
struct MigrationTests {
	/// Counts the migrations that ran, by version.
	private let ran = Recorder<Int>()

	private func migrations(upTo latest: Int = 3, failingAt failing: Int? = nil) -> [Defaults.Migration] {
		let ran = ran
		return (1...latest).map { version in
			Defaults.Migration(version: version) { settings in
				ran.append(version)
				if version == failing {
					try settings.set("half-done", forKey: "progress")
					throw Refused()
				}

				let steps = settings.object(forKey: "steps") as? [Int] ?? []
				try settings.setObject(steps + [version], forKey: "steps")
			}
		}
	}

	private func recordedVersion(_ suite: TestSuite) -> Int? {
		suite.fileContents()?[KeyName.migrationVersion] as? Int
	}

	@Test func aSuiteWithNothingStoredRunsNoneAndRecordsTheLatestVersion() throws {
		let suite = TestSuite()

		let result = try Defaults.migrate(migrations(), suite: suite.defaults)

		#expect(result == Defaults.MigrationResult(previousVersion: nil, version: 3, applied: []))
		#expect(ran.values.isEmpty)
		#expect(recordedVersion(suite) == 3)
	}

	@Test func aSuiteFromBeforeMigrationsRunsThemAllInOrderOnce() throws {
		let suite = TestSuite()
		let steps = Defaults.Key<[Int]>("steps", default: [], suite: suite.defaults)
		Defaults[Defaults.Key<Int>("volume", default: 0, suite: suite.defaults)] = 4
		try Defaults.flush(suite: suite.defaults)

		let first = try Defaults.migrate(migrations(), suite: suite.defaults)
		let second = try Defaults.migrate(migrations(), suite: suite.defaults)

		#expect(first == Defaults.MigrationResult(previousVersion: nil, version: 3, applied: [1, 2, 3]))
		#expect(second == Defaults.MigrationResult(previousVersion: 3, version: 3, applied: []))
		#expect(ran.values == [1, 2, 3])
		#expect(Defaults[steps] == [1, 2, 3])
		#expect(suite.fileContents()?["steps"] as? [Int] == [1, 2, 3])
		#expect(recordedVersion(suite) == 3)
	}

	@Test func onlyTheMigrationsAfterTheRecordedVersionRun() throws {
		let suite = TestSuite()
		Defaults[Defaults.Key<Int>("volume", default: 0, suite: suite.defaults)] = 4
		try Defaults.migrate(migrations(upTo: 1), suite: suite.defaults)

		let result = try Defaults.migrate(migrations(upTo: 3), suite: suite.defaults)

		#expect(result.applied == [2, 3])
		#expect(ran.values == [1, 2, 3])
		#expect(suite.fileContents()?["steps"] as? [Int] == [1, 2, 3])
	}

	@Test func aMigrationThatThrowsLeavesTheSuiteExactlyAsItWas() throws {
		let suite = TestSuite()
		Defaults[Defaults.Key<Int>("volume", default: 0, suite: suite.defaults)] = 4
		try Defaults.migrate(migrations(upTo: 1), suite: suite.defaults)
		let before = try Data(contentsOf: suite.fileURL)

		var thrown: (any Error)?
		let reported = diagnostics {
			do {
				try Defaults.migrate(migrations(upTo: 3, failingAt: 3), suite: suite.defaults)
			} catch {
				thrown = error
			}
		}

		guard case .failed(version: 3, error: is Refused)? = thrown as? Defaults.MigrationError else {
			Issue.record("expected the migration to 3 to fail, got \(String(describing: thrown))")
			return
		}

		#expect(reported.map(\.kind) == [.migrationFailed])
		#expect(try Data(contentsOf: suite.fileURL) == before, "values and version untouched")
		#expect(Defaults[Defaults.Key<[Int]>("steps", default: [], suite: suite.defaults)] == [1])

		// The next launch tries again, from where the suite was.
		let retried = try Defaults.migrate(migrations(upTo: 3), suite: suite.defaults)
		#expect(retried.applied == [2, 3])
		#expect(suite.fileContents()?["steps"] as? [Int] == [1, 2, 3])
	}

	@Test func aSuiteFromANewerVersionOfTheAppIsLeftUntouched() throws {
		let suite = TestSuite()
		Defaults[Defaults.Key<Int>("volume", default: 0, suite: suite.defaults)] = 4
		try Defaults.migrate(migrations(upTo: 3), suite: suite.defaults)
		let before = try Data(contentsOf: suite.fileURL)

		var result: Defaults.MigrationResult?
		let reported = try diagnostics {
			result = try Defaults.migrate(migrations(upTo: 2), suite: suite.defaults)
		}

		#expect(result == Defaults.MigrationResult(previousVersion: 3, version: 3, applied: []))
		#expect(reported.map(\.kind) == [.newerSettingsVersion])
		#expect(try Data(contentsOf: suite.fileURL) == before)
		#expect(ran.values == [1, 2, 3])
	}

	@Test func observersHearEachChangeOnceTheMigrationIsWritten() throws {
		let suite = TestSuite()
		let volume = Defaults.Key<Int>("volume", default: 0, suite: suite.defaults)
		let level = Defaults.Key<Double>("level", default: 0, suite: suite.defaults)
		Defaults[volume] = 4
		try Defaults.flush(suite: suite.defaults)
		let heard = Recorder<String>()
		let observation = Defaults.observe(keys: volume, level, options: []) {
			// Called after the commit: the file already holds the migrated values.
			heard.append("volume=\(Defaults[volume]) level=\(Defaults[level]) file=\(suite.fileContents()?["level"] as? Double ?? -1)")
		}
		defer { observation.invalidate() }

		try Defaults.migrate([
			Defaults.Migration(version: 1) { settings in
				let old = try settings.value(Int.self, forKey: "volume") ?? 0
				settings.removeObject(forKey: "volume")
				settings[level] = Double(old) / 10
			},
		], suite: suite.defaults)

		#expect(heard.values.sorted() == ["volume=0 level=0.4 file=0.4", "volume=0 level=0.4 file=0.4"])
	}

	@Test func theContextReadsAndWritesTypedAndRawValues() throws {
		struct Size: Codable, Equatable, Defaults.Serializable {
			var width: Int
		}

		let suite = TestSuite()
		let size = Defaults.Key<Size>("size", default: Size(width: 1), suite: suite.defaults)
		Defaults[size] = Size(width: 640)
		Defaults[Defaults.Key<String>("name", default: "", suite: suite.defaults)] = "ada"
		try Defaults.flush(suite: suite.defaults)

		try Defaults.migrate([
			Defaults.Migration(version: 1) { settings in
				#expect(settings.names == ["name", "size"])
				#expect(try settings.value(Size.self, forKey: "size") == Size(width: 640))
				#expect(settings[size] == Size(width: 640))
				#expect(throws: (any Error).self) { try settings.value(Int.self, forKey: "name") }
				#expect(throws: (any Error).self) { try settings.setObject(NSObject(), forKey: "bad") }
				settings[size] = Size(width: 1280)
				settings.rename("name", to: "user")
				try settings.set(Optional<Int>.none, forKey: "absent")
			},
		], suite: suite.defaults)

		#expect(Defaults[size] == Size(width: 1280))
		#expect(suite.fileContents()?["user"] as? String == "ada")
		#expect(suite.fileContents()?["name"] == nil)
	}

	@Test func theVersionIsNotAUserKey() throws {
		let suite = TestSuite()
		Defaults[Defaults.Key<Int>("volume", default: 0, suite: suite.defaults)] = 4
		try Defaults.migrate(migrations(upTo: 2), suite: suite.defaults)

		Defaults.removeAll(suite: suite.defaults)
		try Defaults.flush(suite: suite.defaults)

		#expect(suite.fileContents()?["volume"] == nil)
		#expect(recordedVersion(suite) == 2, "removeAll() keeps the suite's version: its values are in the current form")
		#expect(KeyName.problem(with: KeyName.migrationVersion) != nil)
	}

	@Test(arguments: [[0], [2, 1], [1, 1], [-3, 2]])
	func versionsMustBePositiveAndIncreasing(_ versions: [Int]) {
		let suite = TestSuite()
		let migrations = versions.map { Defaults.Migration(version: $0) { _ in } }
		#expect(throws: Defaults.MigrationError.self) {
			try Defaults.migrate(migrations, suite: suite.defaults)
		}
	}

	@Test func migratingTheSameSuiteFromInsideAMigrationIsRefused() throws {
		let suite = TestSuite()
		Defaults[Defaults.Key<Int>("volume", default: 0, suite: suite.defaults)] = 4
		let inner = Recorder<String>()
		let defaults = suite.defaults
		nonisolated(unsafe) let unsafeDefaults = defaults

		try Defaults.migrate([
			Defaults.Migration(version: 1) { _ in
				do {
					try Defaults.migrate([], suite: unsafeDefaults)
					inner.append("ran")
				} catch Defaults.MigrationError.nested {
					inner.append("nested")
				}
			},
		], suite: defaults)

		#expect(inner.values == ["nested"])
	}

	@Test func aValueAnotherThreadWritesWhileAMigrationUsesItIsMigratedNotOverwritten() throws {
		let suite = TestSuite()
		let count = Defaults.Key<Int>("count", default: 0, suite: suite.defaults)
		Defaults[count] = 21
		try Defaults.flush(suite: suite.defaults)
		let ran = ran

		try Defaults.migrate([
			Defaults.Migration(version: 1) { settings in
				ran.append(1)
				let stored = try settings.value(Int.self, forKey: "count") ?? 0
				if ran.count == 1 {
					writeFromAnotherThread(100, to: count)
				}
				try settings.set(stored * 2, forKey: "count")
			},
		], suite: suite.defaults)

		// Before: 42, doubled from the 21 read before the other thread wrote 100.
		#expect(Defaults[count] == 200)
		#expect(ran.values == [1, 1], "the migration ran again on the value written meanwhile")
		#expect(suite.fileContents()?["count"] as? Int == 200)
	}

	@Test func aWriterThatKeepsChangingWhatAMigrationUsesMakesItGiveUpAndLeaveTheSuiteAsItWas() throws {
		let suite = TestSuite()
		let count = Defaults.Key<Int>("count", default: 0, suite: suite.defaults)
		let volume = Defaults.Key<Int>("volume", default: 0, suite: suite.defaults)
		Defaults[count] = 21
		Defaults[volume] = 4
		try Defaults.flush(suite: suite.defaults)
		let ran = ran

		var thrown: (any Error)?
		let reported = diagnostics {
			do {
				try Defaults.migrate([
					Defaults.Migration(version: 1) { settings in
						ran.append(1)
						let stored = try settings.value(Int.self, forKey: "count") ?? 0
						writeFromAnotherThread(100 + ran.count, to: count)
						try settings.set(stored * 2, forKey: "count")
						settings.removeObject(forKey: "volume")
					},
				], suite: suite.defaults)
			} catch {
				thrown = error
			}
		}

		guard case .concurrentChanges(let keys)? = thrown as? Defaults.MigrationError else {
			Issue.record("expected the migration to give up, got \(String(describing: thrown))")
			return
		}

		#expect(keys == ["count"])
		#expect(ran.count == MigrationRun.maximumAttempts)
		#expect(reported.map(\.kind) == [.migrationFailed])
		#expect(reported.first?.message.contains("(count)") == true, "\(reported)")
		try Defaults.flush(suite: suite.defaults)
		let file = try #require(suite.fileContents())
		#expect(file["count"] as? Int == 105, "the other thread's last write stands")
		#expect(file["volume"] as? Int == 4, "nothing of the migration was written")
		#expect(recordedVersion(suite) == nil)

		// The next call, with nobody writing meanwhile, migrates.
		let result = try Defaults.migrate([
			Defaults.Migration(version: 1) { settings in
				try settings.set((try settings.value(Int.self, forKey: "count") ?? 0) * 2, forKey: "count")
			},
		], suite: suite.defaults)
		#expect(result.applied == [1])
		#expect(Defaults[count] == 210)
	}

	@Test func aMigrationThatListsTheNamesDependsOnEveryValue() throws {
		let suite = TestSuite()
		let unrelated = Defaults.Key<Int>("unrelated", default: 0, suite: suite.defaults)
		Defaults[Defaults.Key<Int>("volume", default: 0, suite: suite.defaults)] = 4
		try Defaults.flush(suite: suite.defaults)
		let ran = ran

		try Defaults.migrate([
			Defaults.Migration(version: 1) { settings in
				ran.append(1)
				try settings.setObject(settings.names, forKey: "names")
				if ran.count == 1 {
					writeFromAnotherThread(7, to: unrelated)
				}
			},
		], suite: suite.defaults)

		#expect(ran.values == [1, 1])
		#expect(suite.fileContents()?["names"] as? [String] == ["unrelated", "volume"])
		#expect(Defaults[unrelated] == 7)
	}

	@Test func aVersionRecordedAsAWholeRealNumberIsReadAsThatVersion() throws {
		let suite = TestSuite()
		Defaults[Defaults.Key<Int>("volume", default: 0, suite: suite.defaults)] = 4
		try Suite.of(suite.defaults).commit { _ in [KeyName.migrationVersion: .double(2)] }

		var result: Defaults.MigrationResult?
		let reported = try diagnostics {
			result = try Defaults.migrate(migrations(upTo: 3), suite: suite.defaults)
		}

		#expect(result == Defaults.MigrationResult(previousVersion: 2, version: 3, applied: [3]))
		#expect(ran.values == [3])
		#expect(reported.map(\.kind) == [.otherStoredForm])
		let recorded = try #require(suite.fileContents()?[KeyName.migrationVersion])
		#expect(PropertyListValue(recorded) == .integer(3), "recorded as an integer from then on")
	}

	@Test(arguments: [PropertyListValue.string("2"), .double(2.5), .integer(-1), .bool(true)])
	func aVersionRecordedAsAnythingButAWholeNumberIsRefusedAndLeftAsItIs(_ recorded: PropertyListValue) throws {
		let suite = TestSuite()
		Defaults[Defaults.Key<Int>("volume", default: 0, suite: suite.defaults)] = 4
		try Suite.of(suite.defaults).commit { _ in [KeyName.migrationVersion: recorded] }
		let before = try Data(contentsOf: suite.fileURL)

		var thrown: (any Error)?
		let reported = diagnostics {
			do {
				try Defaults.migrate(migrations(upTo: 3), suite: suite.defaults)
			} catch {
				thrown = error
			}
		}

		// Before: taken for no version, and every migration ran again.
		guard case .invalidRecordedVersion? = thrown as? Defaults.MigrationError else {
			Issue.record("expected the recorded version to be refused, got \(String(describing: thrown))")
			return
		}

		#expect(ran.values.isEmpty)
		#expect(reported.map(\.kind) == [.migrationFailed])
		#expect(try Data(contentsOf: suite.fileURL) == before)
	}
}
