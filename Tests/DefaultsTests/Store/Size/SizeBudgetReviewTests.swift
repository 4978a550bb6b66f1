import DefaultsTestSupport
import DefaultsTesting
import Foundation
import Testing
@testable import Defaults

/// Size budgets, as a review attacked them: budgets that cannot be computed, a budget lowered under values already stored, a pull the budget refuses.
@Suite("Size budgets under review")
struct SizeBudgetReviewTests {
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
}
