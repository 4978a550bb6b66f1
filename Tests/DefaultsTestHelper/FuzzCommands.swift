import Defaults
import DefaultsTestSupport
import Foundation

// Commands of the fuzz tests. Each trial prints "begin INDEX" before it reads
// and "INDEX OUTCOME REPORTED UNTOUCHED REPEATED" after, so that the parent
// names the input that ended the process.
//
//   fuzz-archives SUBJECT SEED START COUNT  mutated archives of SUBJECT (an ArchiveFuzzSubject name)
//   fuzz-values SEED START COUNT            random stored values, each read as StoredValueKind.all[INDEX % count]
//   crafted-archives                        every CraftedArchives case, in order
//   archive-unnameable                      writes values whose class Foundation cannot name; prints what was stored and reported

/// Counts the diagnostics the library reports in this process.
private let reportedCount = Locked(0)

private func installCountingHandler() {
	Defaults.setDiagnosticHandler { _ in reportedCount.withLock { $0 += 1 } }
}

private var reported: Int {
	reportedCount.withLock { $0 }
}

/// Stores `stored` raw under a fresh key, reads it twice with `read`, and prints the outcome.
private func trial(_ index: Int, stored: Any, in suite: UserDefaults, read: (UserDefaults, String) -> Bool) {
	say("begin \(index)")
	let name = "fuzz\(index)"
	suite.setRawAndSynchronize(stored, forKey: name)
	let before = Suite.of(suite).ownValue(forKey: name)
	let start = reported
	let decoded = read(suite, name)
	let afterFirst = reported
	_ = read(suite, name)
	let untouched = Suite.of(suite).ownValue(forKey: name) == before
	suite.removeRawAndSynchronize(forKey: name)
	say("\(index) \(decoded ? "decoded" : "default") \(afterFirst - start) \(untouched) \(reported - afterFirst)")
}

func runFuzzCommand(_ arguments: [String]) {
	installCountingHandler()
	let suite = UserDefaults(suiteName: "defaults-fuzz.\(ProcessInfo.processInfo.processIdentifier)")!
	switch arguments[0] {
	case "fuzz-archives":
		guard let subject = ArchiveFuzzSubject.named(arguments[1]), let seed = UInt64(arguments[2]) else {
			FileHandle.standardError.write(Data("unknown subject \(arguments[1])\n".utf8))
			exit(2)
		}

		let archive = subject.archive()
		let start = Int(arguments[3])!
		for index in start..<(start + Int(arguments[4])!) {
			trial(index, stored: ArchiveMutator.mutant(of: archive, seed: seed, index: index), in: suite, read: subject.read)
		}
	case "fuzz-values":
		let seed = UInt64(arguments[1])!
		let start = Int(arguments[2])!
		for index in start..<(start + Int(arguments[3])!) {
			let kind = StoredValueKind.all[index % StoredValueKind.all.count]
			trial(index, stored: StoredValueGenerator.value(seed: seed, index: index), in: suite, read: kind.read)
		}
	case "crafted-archives":
		for (index, crafted) in CraftedArchives.all.enumerated() {
			trial(index, stored: crafted.archive(), in: suite, read: ArchiveFuzzSubject.named(crafted.subject)!.read)
		}
	default:
		for (name, write) in UnnameableClasses.writers {
			let start = reported
			let stored = write(suite, name)
			say("\(name) stored \(stored) reported \(reported - start)")
		}
	}
}
