import Defaults
import Foundation

// Commands of the tests of what a flush's merge with other processes' writes refuses.
//
//   write-data-when SUITE KEY BYTES BUDGET GO   sets the suite's budget to BUDGET bytes (0: the default), writes KEY = BYTES
//                                               bytes of data without flushing and prints "written"; once the file GO exists,
//                                               flushes and prints "flushed" or "error REASON" (the case of a size refusal), then "size N" (what KEY reads)
//   raw-first SUITE RAWKEYS INT GO OTHER        before the library touches the suite, raw-sets each of the comma-separated
//                                               RAWKEYS = INT without synchronize()
//                                               and prints "raw written"; once the file GO exists, writes OTHER = 1 through the
//                                               library, flushes, prints each diagnostic ("diagnostic KIND") and "done"

func runMergeCommand(_ arguments: [String]) {
	switch arguments[0] {
	case "write-data-when":
		// Nothing is written before GO appears: the flush decides alone, at the merge.
		Defaults.writeMode = .coalesced(milliseconds: 600_000)
		let defaults = suite(arguments[1])
		if let budget = Int(arguments[4]), budget > 0 {
			Defaults.setSizeBudget(Defaults.SizeBudget(perValue: budget, perSuite: budget), suite: defaults)
		}

		let key = Defaults.Key<Data>(arguments[2], default: Data(), suite: defaults)
		defaults[key] = Data(repeating: 0x5A, count: Int(arguments[3])!)
		say("written")
		while !FileManager.default.fileExists(atPath: arguments[5]) {
			usleep(5000)
		}

		do {
			try Defaults.flush(suite: defaults)
			say("flushed")
		} catch .fileWouldBeTooLarge {
			say("error fileWouldBeTooLarge")
		} catch .sizeBudgetExceeded {
			say("error sizeBudgetExceeded")
		} catch {
			say("error \(error)")
		}
		say("size \(defaults[key].count)")

	case "raw-first":
		// Foundation loads the suite's file now, and keeps the raw write unsaved.
		for name in arguments[2].split(separator: ",") {
			suite(arguments[1]).set(Int(arguments[3])!, forKey: String(name))
		}
		say("raw written")
		while !FileManager.default.fileExists(atPath: arguments[4]) {
			usleep(5000)
		}

		Defaults.setDiagnosticHandler { diagnostic in
			say("diagnostic \(diagnostic.kind.rawValue)")
		}
		let defaults = suite(arguments[1])
		defaults[Defaults.Key<Int>(arguments[5], default: 0, suite: defaults)] = 1
		do {
			try Defaults.flush(suite: defaults)
		} catch {
			say("error \(error)")
		}
		say("done")

	default:
		say("unknown merge command \(arguments[0])")
		exit(2)
	}
}
