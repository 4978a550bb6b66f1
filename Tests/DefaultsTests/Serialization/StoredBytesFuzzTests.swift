import DefaultsTestSupport
import Foundation
import Testing

/**
No stored bytes crash the reader. Every read here happens in a child process
(a crash ends the process that reads), in batches; a batch that dies names the
seed and index of the input it was reading, which `ArchiveMutator.mutant` or
`StoredValueGenerator.value` rebuild exactly.

Every read must give either a decoded value with no diagnostic, or the default
with exactly one; the stored bytes stay as they were, and reading the same
stored value again reports nothing new.
*/
@Suite("Fuzz: no stored bytes crash the reader")
struct StoredBytesFuzzTests {
	/// Trials per archive class and for the stored values; `DEFAULTS_FUZZ_TRIALS` overrides (10,000 for a full run).
	static let trials = FuzzSettings.trials(default: 300)

	@Test(arguments: ArchiveFuzzSubject.all.map(\.name))
	func mutatedArchives(of subject: String) throws {
		let summary = try FuzzBatches.run(["fuzz-archives", subject], trials: Self.trials)
		print("fuzz-archives \(subject): \(summary)")
	}

	@Test func storedValuesOfEveryKind() throws {
		let summary = try FuzzBatches.run(["fuzz-values"], trials: Self.trials * 4)
		print("fuzz-values (\(StoredValueKind.all.count) kinds): \(summary)")
	}

	@Test func craftedArchivesThatCrashedFoundation() throws {
		let result = try HelperProcess.run(["crafted-archives"])
		#expect(result.status == 0, "the reader died (status \(result.status)) at: \(FuzzBatches.lastBegun(in: result.lines).map { CraftedArchives.all[$0].name } ?? "?")")
		let outcomes = result.lines.compactMap(FuzzBatches.Outcome.init)
		#expect(outcomes.count == CraftedArchives.all.count)
		for outcome in outcomes {
			let name = CraftedArchives.all[outcome.index].name
			#expect(outcome.decoded == false, "\(name) decoded")
			#expect(outcome.reported == 1, "\(name): \(outcome.reported) diagnostics")
			#expect(outcome.untouched, "\(name): stored bytes changed")
			#expect(outcome.reportedAgain == 0, "\(name): reported again on the second read")
		}
	}
}

/// Runs a fuzz command of the helper in batches and checks every trial's outcome.
enum FuzzBatches {
	static let batchSize = 2_500

	struct Outcome {
		let index: Int
		let decoded: Bool
		let reported: Int
		let untouched: Bool
		let reportedAgain: Int

		init?(_ line: String) {
			let fields = line.split(separator: " ")
			guard fields.count == 5, let index = Int(fields[0]), let reported = Int(fields[2]), let again = Int(fields[4]) else {
				return nil
			}

			self.index = index
			decoded = fields[1] == "decoded"
			self.reported = reported
			untouched = fields[3] == "true"
			reportedAgain = again
		}
	}

	struct Summary: CustomStringConvertible {
		var trials = 0
		var crashes = 0
		var decoded = 0
		var defaults = 0
		var diagnostics = 0

		var description: String {
			"\(trials) trials, \(crashes) crashes, \(defaults) defaults with \(diagnostics) diagnostics, \(decoded) decoded"
		}
	}

	static func lastBegun(in lines: [String]) -> Int? {
		lines.last { $0.hasPrefix("begin ") }.flatMap { Int($0.dropFirst(6)) }
	}

	static func run(_ command: [String], trials: Int) throws -> Summary {
		let seed = FuzzSettings.seed
		var summary = Summary()
		var start = 0
		while start < trials {
			let count = min(batchSize, trials - start)
			let result = try HelperProcess.run(command + ["\(seed)", "\(start)", "\(count)"])
			let outcomes = result.lines.compactMap(Outcome.init)
			for outcome in outcomes {
				summary.trials += 1
				if outcome.decoded {
					summary.decoded += 1
					#expect(outcome.reported == 0, "\(command) seed \(seed) index \(outcome.index): decoded with \(outcome.reported) diagnostics")
				} else {
					summary.defaults += 1
					summary.diagnostics += outcome.reported
					#expect(outcome.reported == 1, "\(command) seed \(seed) index \(outcome.index): \(outcome.reported) diagnostics")
				}

				#expect(outcome.untouched, "\(command) seed \(seed) index \(outcome.index): stored bytes changed")
				#expect(outcome.reportedAgain == 0, "\(command) seed \(seed) index \(outcome.index): reported again on the second read")
			}

			guard result.status == 0 else {
				let crashed = lastBegun(in: result.lines) ?? start
				summary.crashes += 1
				Issue.record("\(command) died with status \(result.status) at seed \(seed) index \(crashed)")
				guard summary.crashes < 5 else {
					break
				}

				start = crashed + 1
				continue
			}

			#expect(outcomes.count == count, "\(command): \(outcomes.count) of \(count) trials reported")
			start += count
		}

		return summary
	}
}
