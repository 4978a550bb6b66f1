import Defaults
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/**
Measures the library against raw `UserDefaults` in one run and prints a table
of ratios. Run it in release mode:

    swift run -c release DefaultsBenchmarks [reads] [writes] [scale] [files] [sync] [processes] [secrets]

(`secrets` measures only inside `scripts/secret-service run`, a throwaway keyring)

(every section when none is named), or compare this build with another
build's binary, run alternately (see ``Comparison``):

    DefaultsBenchmarks --compare OTHER_BINARY [--rounds N] [sections…]

It works in a temporary preferences folder: the process re-executes itself
with `XDG_CONFIG_HOME` pointing there, because Foundation reads the variable
only as it was at launch.
*/
enum Benchmark {
	static let executablePath = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path

	static var configFolder: URL {
		URL(fileURLWithPath: ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"]!, isDirectory: true)
	}

	static let sections = ["reads", "writes", "scale", "files", "sync", "processes", "secrets"]

	static let usage = """
		usage: DefaultsBenchmarks [section…]
		       DefaultsBenchmarks --compare OTHER_BINARY [--rounds N] [section…]

		Sections: \(sections.joined(separator: ", ")) (all when none is named).
		--compare runs this binary and OTHER_BINARY (another build's DefaultsBenchmarks) alternately,
		A B A B …, N rounds (--rounds, else DEFAULTS_BENCHMARK_ROUNDS, else \(Comparison.defaultRounds)),
		and prints the median of every row of both builds with their ratio.
		"""

	static func main() throws {
		let arguments = CommandLine.arguments
		if (3...4).contains(arguments.count), arguments[1] == "--child", let run = ChildRun(rawValue: arguments[2]) {
			try run.perform(fixture: arguments.count == 4 ? arguments[3] : nil)
			return
		}

		var requested: [String] = []
		var other: String?
		var rounds = ProcessInfo.processInfo.environment["DEFAULTS_BENCHMARK_ROUNDS"].flatMap { Int($0) } ?? Comparison.defaultRounds
		var remaining = arguments.dropFirst()[...]
		while let argument = remaining.popFirst() {
			switch argument {
			case "-h", "--help":
				print(usage)
				return
			case "--compare":
				guard let path = remaining.popFirst() else {
					throw BenchmarkError("--compare needs the path of another build's DefaultsBenchmarks binary\n\n\(usage)")
				}

				other = path
			case "--rounds":
				guard let count = remaining.popFirst().flatMap({ Int($0) }), count > 0 else {
					throw BenchmarkError("--rounds needs a positive number\n\n\(usage)")
				}

				rounds = count
			case let section where sections.contains(section):
				requested.append(section)
			default:
				throw BenchmarkError("unknown argument '\(argument)'\n\n\(usage)")
			}
		}

		if let other {
			try Comparison.run(other: other, rounds: max(rounds, 1), sections: requested)
			return
		}

		guard ProcessInfo.processInfo.environment["DEFAULTS_BENCHMARK_FOLDER"] != nil else {
			try relaunchInTemporaryFolder()
			return
		}

		#if DEBUG
		print("warning: a debug build; run `swift run -c release DefaultsBenchmarks` for meaningful numbers\n")
		#endif
		func wanted(_ section: String) -> Bool {
			requested.isEmpty || requested.contains(section)
		}

		Report.printHeader()
		if wanted("reads") {
			let rows = readBenchmarks()
			let racing = racingReadBenchmarks()
			Report.printSection("Typed reads", rows + racing.rows)
			print("\(racing.note)\n")
		}

		if wanted("writes") {
			Report.printSection("Writes, including durability (amortized)", writeBenchmarks())
		}

		if wanted("scale") {
			let distinct = distinctKeysBenchmark()
			Report.printSection(
				"Scale",
				writeAtScaleBenchmarks() + firstReadAfterWriteBenchmarks() + [distinct.row, dispatchBenchmark(), registrationBenchmark()]
			)
			print("Our 10,000 distinct keys reached the disk in \(distinct.flushes) file replacement(s).\n")
			Report.printMemory(try memoryOfALargeSuite())
		}

		if wanted("files") {
			Report.printSection("The suite file: encoding, decoding, and flushes (synced to disk)", try fileBenchmarks())
		}

		if wanted("sync") {
			Report.printTimings("Sync, 1k keys through a shared-folder remote", try waitFor(syncBenchmarks))
		}

		if wanted("secrets") {
			if let secrets = try secretBenchmarks() {
				Report.printSection("Secret keys", secrets.rows)
				Report.printTimings("Secret keys: a read that reaches the store", secrets.timings)
			} else {
				print("Secret keys: not measured; run inside `scripts/secret-service run` (a throwaway keyring) to measure them.\n")
			}
		}

		if wanted("processes") {
			Report.printChildRuns(
				burst: (try ChildRun.burstOurs.run(), try ChildRun.burstRaw.run()),
				readAll: (try ChildRun.readAllOurs.run(), try ChildRun.readAllRaw.run())
			)
		}
	}

	private static func relaunchInTemporaryFolder() throws {
		let folder = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-benchmarks-\(UUID().uuidString)")
		try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
		defer { try? FileManager.default.removeItem(at: folder) }

		var environment = ProcessInfo.processInfo.environment
		environment["XDG_CONFIG_HOME"] = folder.path
		environment["DEFAULTS_BENCHMARK_FOLDER"] = folder.path
		let argv = CommandLine.arguments.map { strdup($0) } + [nil]
		let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
		defer {
			argv.forEach { free($0) }
			envp.forEach { free($0) }
		}

		var pid: pid_t = 0
		guard posix_spawn(&pid, executablePath, nil, nil, argv, envp) == 0 else {
			throw BenchmarkError("cannot start \(executablePath)")
		}

		var status: Int32 = 0
		while waitpid(pid, &status, 0) < 0, errno == EINTR {}
		if status != 0 {
			throw BenchmarkError("the benchmark run failed (status \(status))")
		}
	}
}

/**
Runs async work to completion from synchronous code. The measurements
themselves run outside any task: in an async context every read measured
about 60 ns slower, on our side and not on Foundation's.
*/
func waitFor<Result: Sendable>(_ work: @escaping @Sendable () async throws -> Result) throws -> Result {
	let outcome = Locked<Swift.Result<Result, any Error>?>(nil)
	let done = DispatchSemaphore(value: 0)
	Task.detached {
		do {
			let value = try await work()
			outcome.withLock { $0 = .success(value) }
		} catch {
			outcome.withLock { $0 = .failure(error) }
		}

		done.signal()
	}
	done.wait()
	return try outcome.withLock { $0! }.get()
}

do {
	try Benchmark.main()
} catch {
	FileHandle.standardError.write(Data("DefaultsBenchmarks: \(error)\n".utf8))
	exit(1)
}
