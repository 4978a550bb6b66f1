import Foundation

/// Prints the results as Markdown tables, ready for the README.
enum Report {
	static func printHeader() {
		let date = Date().formatted(.iso8601.year().month().day())
		let cores = ProcessInfo.processInfo.activeProcessorCount
		print("Defaults benchmarks, \(date), \(cores) cores, \(ProcessInfo.processInfo.operatingSystemVersionString)")
		print("Ratio = ours / baseline (lower is better); each value is the median of alternating rounds.\n")
	}

	static func printSection(_ title: String, _ rows: [Row]) {
		print("### \(title)\n")
		print("| Operation | Ours | Baseline | Baseline time | Ratio | Target | Met |")
		print("|---|---:|---|---:|---:|---|---|")
		for row in rows {
			let met = row.isMet.map { $0 ? "yes" : "**no**" } ?? ""
			print("| \(row.operation) | \(Formatting.duration(row.ours)) | \(row.baselineName) | \(Formatting.duration(row.baseline)) | \(String(format: "%.2f", row.ratio))× | \(row.targetText) | \(met) |")
		}

		print()
	}

	static func printTimings(_ title: String, _ timings: [(String, Double)]) {
		print("### \(title)\n")
		print("| Operation | Time |")
		print("|---|---:|")
		for (operation, nanoseconds) in timings {
			print("| \(operation) | \(Formatting.duration(nanoseconds)) |")
		}

		print()
	}

	static func printMemory(_ memory: SuiteMemory) {
		print("### Memory of a loaded 10,000-key suite\n")
		print("| Suite | Peak memory above a process that loads nothing | Resident memory a second suite adds |")
		print("|---|---:|---:|")
		print("| ours (file read, values owned) | \(Formatting.bytes(memory.aboveNone.ours)) | \(Formatting.bytes(memory.secondSuite.ours)) |")
		print("| raw `UserDefaults` (first read) | \(Formatting.bytes(memory.aboveNone.raw)) | \(Formatting.bytes(memory.secondSuite.raw)) |")
		print("| the binary plist file | \(Formatting.bytes(memory.fileBytes)) | |")
		print()
	}

	static func printChildRuns(burst: (ours: ChildRun.Report, raw: ChildRun.Report), readAll: (ours: ChildRun.Report, raw: ChildRun.Report)) {
		print("### 10,000 keys, each run in its own process\n")
		print("| Run | Time | File writes | Bytes written | Peak memory |")
		print("|---|---:|---:|---:|---:|")
		let rows: [(String, ChildRun.Report)] = [
			("10k writes + durable flush (ours)", burst.ours),
			("10k raw `set` + `synchronize()`", burst.raw),
			("declare and read 10k Codable keys once (ours)", readAll.ours),
			("read 10k raw + JSONDecoder", readAll.raw),
		]
		for (name, report) in rows {
			print("| \(name) | \(Formatting.duration(report.seconds * 1e9)) | \(report.fileWrites) | \(Formatting.bytes(report.bytesWritten)) | \(Formatting.bytes(report.peakMemoryBytes)) |")
		}

		print()
	}
}
