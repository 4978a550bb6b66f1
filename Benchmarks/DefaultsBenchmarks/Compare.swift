import Foundation
#if canImport(Glibc)
import Glibc
#endif

/**
`--compare PATH`: runs this build's benchmark and another build's
(`PATH`, the `DefaultsBenchmarks` binary of that build) alternately, A B A B …,
for a number of rounds, and prints every row of both with the median of each
and their ratio, so "not slower than before" is one command:

    .build-release/release/DefaultsBenchmarks --compare /tmp/DefaultsBenchmarks-old [--rounds 3] [reads writes …]

Each run is a whole benchmark process with its own temporary folder; the
sections named are passed on to both. A row is matched by its section, its
operation and its baseline's name, so a row that only one build has is listed
as such rather than compared.
*/
enum Comparison {
	static let defaultRounds = 3

	static func run(other: String, rounds: Int, sections: [String]) throws {
		let otherPath = URL(fileURLWithPath: other).standardizedFileURL.path
		guard FileManager.default.isExecutableFile(atPath: otherPath) else {
			throw BenchmarkError("--compare: \(other) is not an executable file")
		}

		let loadBefore = loadAverage()
		var this: [Measurements] = []
		var others: [Measurements] = []
		for round in 1...rounds {
			for (label, path) in [("this build", Benchmark.executablePath), ("other build", otherPath)] {
				let start = nanoseconds()
				let output = try runBenchmark(path, arguments: sections)
				let measurements = Measurements(parsing: output)
				if label == "this build" {
					this.append(measurements)
				} else {
					others.append(measurements)
				}

				log("round \(round)/\(rounds), \(label): \(measurements.values.count) values in \(Formatting.duration(Double(nanoseconds() - start)))")
			}
		}

		print("Compared: this build (\(Benchmark.executablePath)) and the other build (\(otherPath)), \(rounds) round\(rounds == 1 ? "" : "s"), alternating (A B A B …).")
		let cores = ProcessInfo.processInfo.activeProcessorCount
		print("Load average (1 minute) before: \(loadBefore), after: \(loadAverage()), on \(cores) cores; on a busy machine the ± columns widen and the verdicts mean little.")
		print("Each value is the median of the rounds; ± is half the range of the rounds around it. This / other below 1 means this build is faster.")
		print("A value is \"slower\" or \"faster\" when the ratio is beyond 5% and the two builds' rounds do not overlap (judged from 3 rounds up); otherwise it is within noise.\n")
		printTable(this: this, other: others)
	}

	/// One run's numbers: every numeric cell of every table row, keyed by section, row and column.
	struct Measurements {
		struct Key: Hashable {
			let section: String
			let row: String
			let metric: String
		}

		enum Unit {
			case nanoseconds, bytes, ratio, count
		}

		var order: [Key] = []
		var values: [Key: (value: Double, unit: Unit)] = [:]

		/**
		Columns that are not compared as printed: the goal, and the ratio, which is
		printed to two decimals and is instead computed again from the row's two
		times (the baseline's time is the same code in both builds, so it is only
		compared through that ratio).
		*/
		static let skippedColumns: Set<String> = ["Baseline time", "Ratio", "Target", "Met"]

		init(parsing output: String) {
			var section = ""
			var header: [String]?
			var seenRows: [String: Int] = [:]
			for line in output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
				if line.hasPrefix("### ") {
					section = String(line.dropFirst(4))
					header = nil
					continue
				}

				guard line.hasPrefix("|") else {
					header = nil
					continue
				}

				let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast().map { $0.trimmingCharacters(in: .whitespaces) }
				guard let columns = header else {
					header = cells
					continue
				}

				if cells.allSatisfy({ $0.allSatisfy { "-:".contains($0) } }) {
					continue
				}

				var labels: [String] = []
				var numbers: [(String, Double, Unit)] = []
				for (column, cell) in zip(columns, cells) {
					if let (value, unit) = Self.number(cell) {
						if !Self.skippedColumns.contains(column) {
							numbers.append((column, value, unit))
						}
					} else if !Self.skippedColumns.contains(column), !cell.isEmpty {
						labels.append(cell)
					}
				}

				if let ours = numbers.first(where: { $0.0 == "Ours" }), let index = columns.firstIndex(of: "Baseline time"),
				   index < cells.count, let (baseline, _) = Self.number(cells[index]), baseline > 0 {
					numbers.append(("Ratio", ours.1 / baseline, .ratio))
				}

				var row = labels.first ?? ""
				if labels.count > 1 {
					row += " vs \(labels.dropFirst().joined(separator: ", "))"
				}

				let occurrence = seenRows["\(section)\n\(row)", default: 0] + 1
				seenRows["\(section)\n\(row)"] = occurrence
				if occurrence > 1 {
					row += " #\(occurrence)"
				}

				for (metric, value, unit) in numbers {
					let key = Key(section: section, row: row, metric: metric)
					order.append(key)
					values[key] = (value, unit)
				}
			}
		}

		/// A cell as the report prints numbers: a duration, a size, a ratio or a count; nil for text.
		static func number(_ cell: String) -> (Double, Unit)? {
			let units: [(String, Double, Unit)] = [
				(" ns", 1, .nanoseconds), (" µs", 1e3, .nanoseconds), (" ms", 1e6, .nanoseconds), (" s", 1e9, .nanoseconds),
				(" KiB", 1024, .bytes), (" MiB", 1024 * 1024, .bytes), ("×", 1, .ratio),
			]
			for (suffix, scale, unit) in units where cell.hasSuffix(suffix) {
				return Double(cell.dropLast(suffix.count).replacingOccurrences(of: ",", with: "")).map { ($0 * scale, unit) }
			}

			return Double(cell).map { ($0, .count) }
		}

		static func format(_ value: Double, _ unit: Unit) -> String {
			switch unit {
			case .nanoseconds: Formatting.duration(value)
			case .bytes: Formatting.bytes(Int(value))
			// Three significant digits, never in exponent notation (ratios against Foundation reach 0.00005×).
			case .ratio: String(format: "%.*f×", max(2, 2 - Int(log10(max(abs(value), 1e-12)).rounded(.down))), value)
			case .count: String(format: value == value.rounded() ? "%.0f" : "%.2f", value)
			}
		}
	}

	private static func printTable(this: [Measurements], other: [Measurements]) {
		// Sections in the order they first appear, rows in the order they first appear in their section.
		var sections: [String] = []
		var rows: [String: [Measurements.Key]] = [:]
		var seen: Set<Measurements.Key> = []
		for key in (this + other).flatMap(\.order) where seen.insert(key).inserted {
			if rows[key.section] == nil {
				sections.append(key.section)
			}

			rows[key.section, default: []].append(key)
		}

		var tally = Tally()
		for section in sections {
			print("### \(section)\n")
			print("| Row | Metric | This build | ± | Other build | ± | This / other | |")
			print("|---|---|---:|---:|---:|---:|---:|---|")
			for key in rows[section]! {
				printRow(key, this: this, other: other, tally: &tally)
			}

			print()
		}

		print("Values: \(tally.slower) slower, \(tally.faster) faster, \(tally.same) within noise or not judged; \(tally.onlyThis) only in this build, \(tally.onlyOther) only in the other.")
	}

	private static func printRow(
		_ key: Measurements.Key,
		this: [Measurements],
		other: [Measurements],
		tally: inout Tally
	) {
		let ours = Summary(this.compactMap { $0.values[key] })
		let theirs = Summary(other.compactMap { $0.values[key] })
		var cells = ["\(key.row)", "\(key.metric)"]
		cells += ours.map { [Measurements.format($0.middle, $0.unit), $0.spread] } ?? ["—", ""]
		cells += theirs.map { [Measurements.format($0.middle, $0.unit), $0.spread] } ?? ["—", ""]
		switch (ours, theirs) {
		case let (ours?, theirs?):
			let ratio = theirs.middle == 0 ? (ours.middle == 0 ? 1 : .infinity) : ours.middle / theirs.middle
			let verdict: String
			if min(ours.count, theirs.count) < 3 {
				verdict = ""
				tally.same += 1
			} else if ratio > 1.05, ours.minimum > theirs.maximum {
				verdict = "**slower**"
				tally.slower += 1
			} else if ratio < 0.95, ours.maximum < theirs.minimum {
				verdict = "faster"
				tally.faster += 1
			} else {
				verdict = ""
				tally.same += 1
			}

			cells += [String(format: "%.2f", ratio), verdict]
		case (_?, nil):
			cells += ["", "only in this build"]
			tally.onlyThis += 1
		default:
			cells += ["", "only in the other build"]
			tally.onlyOther += 1
		}

		print("| " + cells.joined(separator: " | ") + " |")
	}

	/// How many values came out which way.
	private struct Tally {
		var slower = 0
		var faster = 0
		var same = 0
		var onlyThis = 0
		var onlyOther = 0
	}

	/// The rounds of one build for one value.
	private struct Summary {
		let middle: Double
		let minimum: Double
		let maximum: Double
		let unit: Measurements.Unit
		let count: Int

		init?(_ values: [(value: Double, unit: Measurements.Unit)]) {
			guard let first = values.first else {
				return nil
			}

			middle = median(values.map(\.value))
			minimum = values.map(\.value).min()!
			maximum = values.map(\.value).max()!
			unit = first.unit
			count = values.count
		}

		var spread: String {
			middle == 0 ? "" : String(format: "%.0f%%", (maximum - minimum) / 2 / middle * 100)
		}
	}

	/// Runs one benchmark binary in a process of its own and returns what it printed.
	private static func runBenchmark(_ path: String, arguments: [String]) throws -> String {
		let output = Pipe()
		var actions = posix_spawn_file_actions_t()
		posix_spawn_file_actions_init(&actions)
		defer { posix_spawn_file_actions_destroy(&actions) }
		posix_spawn_file_actions_adddup2(&actions, output.fileHandleForWriting.fileDescriptor, 1)

		// Each run makes its own temporary folder, as when started by hand.
		var environment = ProcessInfo.processInfo.environment
		environment["DEFAULTS_BENCHMARK_FOLDER"] = nil
		let argv = ([path] + arguments).map { strdup($0) } + [nil]
		let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
		defer {
			argv.forEach { free($0) }
			envp.forEach { free($0) }
		}

		var pid: pid_t = 0
		guard posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 else {
			throw BenchmarkError("cannot start \(path)")
		}

		try output.fileHandleForWriting.close()
		let data = output.fileHandleForReading.readDataToEndOfFile()
		var status: Int32 = 0
		while waitpid(pid, &status, 0) < 0, errno == EINTR {}
		guard status == 0 else {
			throw BenchmarkError("\(path) failed with status \(status)")
		}

		return String(decoding: data, as: UTF8.self)
	}

	/// The first field of `/proc/loadavg`, or "unknown".
	private static func loadAverage() -> String {
		(try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first.map(String.init) ?? "unknown"
	}

	private static func log(_ message: String) {
		FileHandle.standardError.write(Data("\(message)\n".utf8))
	}
}
