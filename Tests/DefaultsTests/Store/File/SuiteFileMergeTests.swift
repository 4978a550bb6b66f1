import Testing
@testable import Defaults

/// The merge a flush makes under the inter-process lock, with no file: each test gives it the file as found and this process's changes, and checks what it writes, commits and refuses.
@Suite struct SuiteFileMergeTests {
	private let roomy = SuiteSizeAccount(budget: Defaults.SizeBudget(perSuite: 1024 * 1024), hardLimit: FileLimits.maximumFileSize)

	private func pending(_ changes: [String: PropertyListValue?]) -> [(name: String, change: FlushPolicy.Change)] {
		changes.sorted { $0.key < $1.key }.enumerated().map { (name: $1.key, change: FlushPolicy.Change(value: $1.value, generation: UInt64($0 + 1))) }
	}

	@Test func pendingChangesGoOverWhatOthersWrote() throws {
		let merge = try SuiteFileMerge(
			pending: pending(["mine": .integer(2), "gone": nil]),
			onto: ["mine": .integer(1), "theirs": .string("kept"), "gone": .bool(true)],
			size: roomy,
			suite: "merge",
			path: "/merge.plist"
		)

		#expect(merge.contents == ["mine": .integer(2), "theirs": .string("kept")])
		#expect(merge.written == ["mine", "gone"])
		#expect(merge.committed.isEmpty)
		#expect(merge.refused == nil)
		#expect(merge.diagnostics.isEmpty)
		#expect(merge.changesTheFile)
	}

	@Test func changesTheFileOnlyWhenAWrittenValueDiffers() throws {
		let merge = try SuiteFileMerge(pending: pending(["a": .integer(1)]), onto: ["a": .integer(1), "b": .integer(2)], size: roomy, suite: "merge", path: "/merge.plist")

		#expect(!merge.changesTheFile)
	}

	@Test func aWriteAheadIsTakenAsItIs() throws {
		let ahead: [String: PropertyListValue] = ["a": .integer(2), "b": .integer(3)]
		let tiny = SuiteSizeAccount(budget: Defaults.SizeBudget(perValue: 1, perSuite: 1), hardLimit: FileLimits.maximumFileSize)
		let merge = try SuiteFileMerge(pending: pending(["a": .integer(2)]), onto: ["a": .integer(1), "b": .integer(3)], writtenAhead: ahead, size: tiny, suite: "merge", path: "/merge.plist")

		#expect(merge.contents == ahead)
		#expect(merge.refused == nil, "a write ahead is prepared only within the limits")
	}

	@Test func aCommitDecidesOverTheMergedContents() throws {
		var seen: [String: PropertyListValue] = [:]
		let merge = try SuiteFileMerge(
			pending: pending(["a": .integer(2)]),
			onto: ["a": .integer(1), "b": .integer(5)],
			committing: { stored in
				seen = stored
				return ["b": nil, "c": .string("new")]
			},
			size: roomy,
			suite: "merge",
			path: "/merge.plist"
		)

		#expect(seen == ["a": .integer(2), "b": .integer(5)])
		#expect(merge.contents == ["a": .integer(2), "c": .string("new")])
		#expect(merge.committed == ["b": nil, "c": .string("new")])
		#expect(merge.written == ["a", "b", "c"])
	}

	@Test func aCommitPastTheBudgetWritesNothing() {
		let small = SuiteSizeAccount(budget: Defaults.SizeBudget(perSuite: 200), hardLimit: FileLimits.maximumFileSize)
		#expect(throws: Defaults.PersistenceError.self) {
			try SuiteFileMerge(
				pending: [],
				onto: ["a": .integer(1)],
				committing: { _ in ["big": .string(String(repeating: "x", count: 500))] },
				size: small,
				suite: "merge",
				path: "/merge.plist"
			)
		}
	}

	@Test func growthPastTheBudgetWithOthersWritesIsRefused() throws {
		let small = SuiteSizeAccount(budget: Defaults.SizeBudget(perSuite: 300), hardLimit: FileLimits.maximumFileSize)
		let theirs = PropertyListValue.string(String(repeating: "t", count: 200))
		let merge = try SuiteFileMerge(
			pending: pending(["mine": .string(String(repeating: "m", count: 200)), "small": nil]),
			onto: ["theirs": theirs, "small": .integer(1)],
			size: small,
			suite: "merge",
			path: "/merge.plist"
		)

		#expect(merge.contents == ["theirs": theirs], "the growing change is back to the file's value; the removal goes through")
		#expect(merge.refused?.names == ["mine"])
		#expect(merge.diagnostics.map(\.kind) == [.sizeBudgetExceeded])
		#expect(merge.diagnostics.first?.key == "mine")
		guard case .sizeBudgetExceeded(let key, _, let budget)? = merge.refused?.error else {
			Issue.record("expected a size budget error, got \(String(describing: merge.refused?.error))")
			return
		}
		#expect(key == "mine")
		#expect(budget == 300)
	}

	@Test func aSuiteAlreadyPastTheBudgetMayStillShrink() throws {
		let small = SuiteSizeAccount(budget: Defaults.SizeBudget(perSuite: 100), hardLimit: FileLimits.maximumFileSize)
		let big = PropertyListValue.string(String(repeating: "b", count: 400))
		let merge = try SuiteFileMerge(
			pending: pending(["big": .string(String(repeating: "b", count: 300))]),
			onto: ["big": big],
			size: small,
			suite: "merge",
			path: "/merge.plist"
		)

		#expect(merge.refused == nil)
		#expect(merge.contents["big"] == .string(String(repeating: "b", count: 300)))
	}
}
