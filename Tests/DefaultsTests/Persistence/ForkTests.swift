import Foundation
import Testing
@testable import Defaults

/// Trials of the fork test; raise for a long run: `DEFAULTS_FORK_TRIALS=50 swift test --filter ForkTests`.
private let forkTrials = ProcessInfo.processInfo.environment["DEFAULTS_FORK_TRIALS"].flatMap(Int.init) ?? 3

@Suite("fork(): a child writes only its own changes")
struct ForkTests {
	/// The parent had a change pending when it forked, then wrote a newer value and flushed; the child's exit flush must not put the old one back.
	@Test func aForkedChildDoesNotWriteItsParentsPendingChanges() throws {
		let suite = TestSuite()
		var kept = 0
		var childWritesKept = 0
		for trial in 0..<forkTrials {
			let key = "shared\(trial)"
			let own = "child\(trial)"
			let result = try HelperProcess.run(["fork-pending", suite.name, key, own])
			#expect(result.status == 0)
			#expect(result.lines == ["child exited 0"], "\(result.lines)")
			let contents = suite.fileContents()
			if contents?[key] as? Int == 2 {
				kept += 1
			}
			if contents?[own] as? Int == 3 {
				childWritesKept += 1
			}
		}

		#expect(kept == forkTrials, "the parent's newer value survived the child's exit in \(kept)/\(forkTrials)")
		#expect(childWritesKept == forkTrials, "the child's own write was flushed at its exit in \(childWritesKept)/\(forkTrials)")
	}
}
