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
//   raw-then-write SUITE KEY OTHER              raw-sets KEY = 1 and OTHER = 5 without synchronize(), writes KEY = 2 through the
//                                               library, flushes; prints each diagnostic ("diagnostic KIND KEY"), then
//                                               "value V" and "other V" (what the library reads), then the same after a raw
//                                               synchronize() and a second flush
//   flush-then-raw SUITE KEY OTHER              writes KEY = 1 through the library and flushes, raw-sets KEY = 4 without
//                                               synchronize(), writes OTHER = 2 through the library, flushes; prints each
//                                               diagnostic ("diagnostic KIND KEY") and "value V" (what KEY reads)

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

	case "raw-then-write":
		// A process of its own: on Linux any suite's synchronize() saves every suite's raw writes, so another
		// thread's flush of another suite, racing this flush, would save these raw writes at a moment of its own.
		let defaults = suite(arguments[1])
		let key = Defaults.Key<Int>(arguments[2], default: 0, suite: defaults)
		let other = Defaults.Key<Int>(arguments[3], default: 0, suite: defaults)
		defaults.set(1, forKey: key.name)
		defaults.set(5, forKey: other.name)
		defaults[key] = 2
		Defaults.setDiagnosticHandler { diagnostic in
			say("diagnostic \(diagnostic.kind.rawValue) \(diagnostic.key ?? "-")")
		}
		do {
			try Defaults.flush(suite: defaults)
			say("value \(defaults[key])")
			say("other \(defaults[other])")
			defaults.synchronize()
			try Defaults.flush(suite: defaults)
			say("value \(defaults[key])")
		} catch {
			say("error \(error)")
		}

	case "flush-then-raw":
		// A process of its own, for the reason above.
		let defaults = suite(arguments[1])
		let key = Defaults.Key<Int>(arguments[2], default: 0, suite: defaults)
		let other = Defaults.Key<Int>(arguments[3], default: 0, suite: defaults)
		Defaults.setDiagnosticHandler { diagnostic in
			say("diagnostic \(diagnostic.kind.rawValue) \(diagnostic.key ?? "-")")
		}
		do {
			defaults[key] = 1
			try Defaults.flush(suite: defaults)
			// Made after the library's write was flushed: the newest value of the key.
			defaults.set(4, forKey: key.name)
			defaults[other] = 2
			try Defaults.flush(suite: defaults)
			say("value \(defaults[key])")
		} catch {
			say("error \(error)")
		}

	default:
		say("unknown merge command \(arguments[0])")
		exit(2)
	}
}
