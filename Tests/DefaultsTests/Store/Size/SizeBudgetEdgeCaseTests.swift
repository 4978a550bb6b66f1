import DefaultsTestSupport
import DefaultsTesting
import Foundation
import Testing
@testable import Defaults

/**
Size budgets at their edges: budgets that cannot be computed, a
budget lowered under values already stored, a pull the budget refuses; and
commits (imports, migrations, issue 38 item 11): a suite without a file
checks a commit as a whole and then applies it key by key, so a write from
another thread in between must be measured with all of it, and a commit that
crosses the warning size reports it once, as a write does.
*/
@Suite("Size budgets at their edges")
struct SizeBudgetEdgeCaseTests {
	@Test("a budget of any size or fraction never traps", arguments: [Double.nan, .infinity, -1, 1, 0.8])
	func anyBudgetIsSafe(_ fraction: Double) throws {
		let suite = TestSuite()
		let budget = Defaults.SizeBudget(perSuite: .max, warningFraction: fraction)
		#expect(budget.warningSize >= 0)
		#expect(!budget.description.isEmpty)
		Defaults.setSizeBudget(budget, suite: suite.defaults)
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		let reported = diagnostics { Defaults[key] = 1 }
		#expect(Defaults[key] == 1)
		#expect(reported.allSatisfy { $0.kind == .sizeBudgetWarning })
	}

	@Test("a value over a budget lowered since can still be made smaller or removed")
	func shrinkingPastALoweredBudgetIsAllowed() throws {
		let suite = TestSuite()
		let blob = Defaults.Key<Data>(suite.keyName("blob"), default: Data(), suite: suite.defaults)
		Defaults[blob] = Data(repeating: 1, count: 4000)
		Defaults.setSizeBudget(Defaults.SizeBudget(perValue: 1000, perSuite: 100_000), suite: suite.defaults)

		let reported = diagnostics {
			Defaults[blob] = Data(repeating: 2, count: 3000)
			#expect(Defaults[blob].count == 3000, "smaller, though still over the per-value budget")
			Defaults[blob] = Data(repeating: 3, count: 3500)
			#expect(Defaults[blob].count == 3000, "growing again is refused")
		}
		#expect(reported.map(\.kind) == [.sizeBudgetExceeded])

		Defaults.setSizeBudget(Defaults.SizeBudget(perValue: -1, perSuite: 100_000), suite: suite.defaults)
		blob.reset()
		#expect(Defaults[blob].isEmpty, "a removal always makes room")
	}

	@Test("a pulled value the budget refuses is pulled again once there is room, not skipped as done")
	func refusedPullIsRetried() async throws {
		let remote = InMemoryRemoteStore()
		let suite = TestSuite()
		let key = Defaults.Key<Data>(suite.keyName("synced"), default: Data(), suite: suite.defaults)
		let synchronizer = Synchronizer(device: "small")
		Defaults.setSizeBudget(Defaults.SizeBudget(perValue: 100, perSuite: 100_000), suite: suite.defaults)
		let stamp = Defaults.SyncTimestamp(milliseconds: HybridLogicalClock.systemMilliseconds(), counter: 0, device: "big")
		try await remote.publish([key.name: Defaults.RemoteEntry(value: Defaults.AnySerializable(Data(repeating: 7, count: 500)), timestamp: stamp)])

		let name = key.name
		let (_, refused) = await DiagnosticReporter.claimingAsync(where: { $0.key == name }) {
			synchronizer.add([key])
			synchronizer.remote = remote
			await synchronizer.waitForSyncCompletion()
		}
		#expect(refused.map(\.kind).contains(.sizeBudgetExceeded))
		#expect(Defaults[key].isEmpty)

		Defaults.setSizeBudget(Defaults.SizeBudget(perSuite: 100_000), suite: suite.defaults)
		synchronizer.refresh()
		await synchronizer.waitForSyncCompletion()
		#expect(Defaults[key].count == 500)
	}

	// MARK: Commits

	/// The suites without a file: in memory (Foundation-backed), and one whose file cannot be determined (its values owned by the library).
	enum FilelessSuite: String, CaseIterable, CustomTestStringConvertible {
		case inMemory
		case persistenceUnavailable

		var testDescription: String { rawValue }

		/// A new suite of this kind, and what its first use reported.
		func make() -> (defaults: UserDefaults, reported: [Defaults.Diagnostic]) {
			switch self {
			case .inMemory:
				return (InMemoryDefaults(), [])
			case .persistenceUnavailable:
				// A name that would leave the preferences folder: the suite keeps its changes in memory.
				let defaults = UserDefaults(suiteName: "../commit-budget-\(UUID().uuidString)")!
				let reported = diagnostics {
					_ = Suite.of(defaults)
				}
				return (defaults, reported)
			}
		}
	}

	private static func blob(_ count: Int) -> Data {
		Data(repeating: 0xA5, count: count)
	}

	private static func settings(_ values: [String: Any]) throws -> Data {
		try PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0)
	}

	/**
	The window made certain: an observer of the import's keys (called as the
	first of them is applied, with the rest still to come) has another thread
	write a value that fits the suite as it is, but not with the whole import.
	*/
	@Test(arguments: FilelessSuite.allCases)
	func aWriteRacingAFilelessCommitIsMeasuredWithAllOfIt(_ kind: FilelessSuite) throws {
		let (defaults, setUp) = kind.make()
		#expect(Suite.of(defaults).file == nil)
		#expect(setUp.allSatisfy { $0.kind == .persistenceFailed }, "\(setUp)")
		Defaults.setSizeBudget(Defaults.SizeBudget(perSuite: 4096, warningFraction: 1), suite: defaults)
		let id = UUID().uuidString.prefix(8)
		let imported = (0..<3).map { Defaults.Key<Data>("imported\($0)_\(id)", default: Data(), suite: defaults) }
		let racer = Defaults.Key<Data>("racer_\(id)", default: Data(), suite: defaults)

		let raced = Recorder<Bool>()
		let observations = imported.map { key in
			Defaults.observe(key, options: []) { _ in
				guard raced.values.isEmpty else {
					return
				}

				raced.append(true)
				BackgroundThread {
					Defaults[racer] = Self.blob(1500)
				}.wait()
			}
		}
		defer {
			for observation in observations {
				observation.invalidate()
			}
		}

		let racerName = racer.name
		let (_, refused) = try DiagnosticReporter.claiming(where: { $0.key == racerName }) {
			let reported = try diagnostics {
				try Defaults.importSettings(Self.settings(Dictionary(uniqueKeysWithValues: imported.map { ($0.name, Self.blob(900)) })), into: defaults)
			}
			#expect(reported.isEmpty, "\(reported)")
		}

		#expect(raced.values == [true], "the racing write ran while the import was being applied")
		#expect(imported.allSatisfy { Defaults[$0].count == 900 }, "the import was checked as a whole: all of it is applied")
		#expect(refused.map(\.kind) == [.sizeBudgetExceeded], "the racing write is measured with the whole import: \(refused)")
		#expect(Defaults[racer].isEmpty)
		let total = Defaults.sizeReport(suite: defaults).totalBytes
		#expect(total <= 4096, "the suite stays within its budget: \(total) bytes")
	}

	/**
	Threads writing while another imports, many times over: the suite never
	ends past its budget, and the size the budget keeps is the size of what is
	stored. A suite whose values the library owns: a Foundation-backed one
	measures Foundation's copy again before it refuses, which can miss a write
	admitted but not yet in that copy.
	*/
	@Test func writersRacingFilelessImportsNeverPassTheBudget() throws {
		let (defaults, _) = FilelessSuite.persistenceUnavailable.make()
		Defaults.setSizeBudget(Defaults.SizeBudget(perSuite: 4096, warningFraction: 1), suite: defaults)
		let id = UUID().uuidString.prefix(8)
		let imported = (0..<3).map { "imported\($0)_\(id)" }
		let racers = (0..<2).map { Defaults.Key<Data>("racer\($0)_\(id)", default: Data(), suite: defaults) }
		let importedValues = try Self.settings(Dictionary(uniqueKeysWithValues: imported.map { ($0, Self.blob(900)) }))
		let emptied = try Self.settings([:])
		// `UserDefaults` is documented as thread-safe, though not marked `Sendable`.
		nonisolated(unsafe) let shared = defaults

		_ = DiagnosticReporter.claiming(where: { $0.key?.hasSuffix(String(id)) == true || $0.message.contains(String(id)) }) {
			for _ in 0..<100 {
				DispatchQueue.concurrentPerform(iterations: 3) { index in
					if index == 2 {
						_ = try? Defaults.importSettings(importedValues, into: shared)
					} else {
						Defaults[racers[index]] = Self.blob(700)
					}
				}

				let total = Defaults.sizeReport(suite: defaults).totalBytes
				#expect(total <= 4096, "\(total) bytes")
				#expect((Suite.of(defaults).backing as? UnfiledBacking)?.size.withLock { $0.tally?.size } == Int64(total), "the budget counts what is stored")
				_ = try? Defaults.importSettings(emptied, into: defaults, replacing: true)
			}
		}
	}

	@Test(arguments: [nil] + FilelessSuite.allCases.map(Optional.some))
	func anImportThatCrossesTheWarningSizeWarnsOnce(_ kind: FilelessSuite?) throws {
		let testSuite = kind == nil ? TestSuite() : nil
		let defaults = try testSuite?.defaults ?? #require(kind?.make().defaults)
		#expect((Suite.of(defaults).file != nil) == (kind == nil))
		// Warned at 2048 bytes, armed again under 1844.
		Defaults.setSizeBudget(Defaults.SizeBudget(perValue: 1024, perSuite: 4096, warningFraction: 0.5), suite: defaults)
		let id = UUID().uuidString.prefix(8)
		let first = Defaults.Key<Data>("first_\(id)", default: Data(), suite: defaults)
		let later = Defaults.Key<Data>("later_\(id)", default: Data(), suite: defaults)
		let names = (0..<2).map { "imported\($0)_\(id)" }

		var reported = diagnostics {
			Defaults[first] = Self.blob(900)
		}
		#expect(reported.isEmpty, "under the warning size: \(reported)")

		reported = try diagnostics {
			try Defaults.importSettings(Self.settings(Dictionary(uniqueKeysWithValues: names.map { ($0, Self.blob(900)) })), into: defaults)
		}
		#expect(reported.map(\.kind) == [.sizeBudgetWarning], "the import that crossed warns, once: \(reported)")
		#expect(reported.first?.message.contains("2 keys at once") == true, "\(reported)")

		reported = try diagnostics {
			Defaults[later] = Self.blob(100)
			try Defaults.importSettings(Self.settings([names[0]: Self.blob(950)]), into: defaults)
		}
		#expect(reported.isEmpty, "reported once, until the suite shrinks: \(reported)")

		reported = try diagnostics {
			try Defaults.importSettings(Self.settings([first.name: Self.blob(900)]), into: defaults, replacing: true)
			try Defaults.importSettings(Self.settings([names[0]: Self.blob(900), names[1]: Self.blob(900)]), into: defaults)
		}
		#expect(reported.map(\.kind) == [.sizeBudgetWarning], "armed again once the suite shrank: \(reported)")
		#expect(reported.first?.key == nil, "several keys: none named alone")

		reported = try diagnostics {
			try Defaults.importSettings(Self.settings([first.name: Self.blob(900)]), into: defaults, replacing: true)
			try Defaults.importSettings(Self.settings([names[0]: Self.blob(900), names[1]: Self.blob(900)]), into: defaults)
			Defaults.setSizeBudget(Defaults.SizeBudget(perValue: 1024, perSuite: 4096, warningFraction: 0.5), suite: defaults)
			try Defaults.importSettings(Self.settings([names[1]: Self.blob(950)]), into: defaults)
		}
		#expect(reported.map(\.kind) == [.sizeBudgetWarning, .sizeBudgetWarning], "a budget set arms it again: \(reported)")
		#expect(reported.last?.key == names[1], "one key: named")
	}
}
