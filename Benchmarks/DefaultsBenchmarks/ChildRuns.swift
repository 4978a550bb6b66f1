import Defaults
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/**
The 10,000-key runs, each in a process of its own so its peak memory can be
read (`wait4`'s `ru_maxrss`) and its file writes counted apart from the rest.
*/
enum ChildRun: String {
	case burstOurs = "burst-ours"
	case burstRaw = "burst-raw"
	case readAllOurs = "read-all-ours"
	case readAllRaw = "read-all-raw"
	case loadNone = "load-none"
	case loadOurs = "load-ours"
	case loadRaw = "load-raw"
	case secondOurs = "second-ours"
	case secondRaw = "second-raw"

	static let keyCount = 10_000

	/// What a child reports back on its standard output.
	struct Report: Codable {
		var seconds: Double
		var fileWrites: Int
		var bytesWritten: Int
		var peakMemoryBytes: Int
	}

	/// Runs in the child: performs the run and prints its report as JSON. `fixture`: the suite a load run loads, written by the parent.
	func perform(fixture: String?) throws {
		let suiteName = "defaults-benchmarks.\(rawValue).\(UUID().uuidString)"
		if self == .readAllOurs || self == .readAllRaw {
			try writeFileOfWindows(suiteName: suiteName)
		}

		if self == .loadNone || self == .loadOurs || self == .loadRaw {
			guard let fixture else {
				throw BenchmarkError("\(rawValue) loads the suite its parent wrote: --child \(rawValue) SUITE")
			}

			try load(suiteName: fixture)
			return
		}

		if self == .secondOurs || self == .secondRaw {
			try loadSecond()
			return
		}

		let suite = UserDefaults(suiteName: suiteName)!
		let counter = try FileWriteCounter(watching: Benchmark.configFolder, fileName: "\(suiteName).plist")
		let bytesBefore = Self.bytesWrittenByProcess()
		let start = nanoseconds()

		switch self {
		case .burstOurs:
			let keys = (0..<Self.keyCount).map { Defaults.Key<Int?>("key\($0)", suite: suite) }
			let loopStart = nanoseconds()
			for (index, key) in keys.enumerated() {
				suite[key] = index
			}

			try Defaults.flush(suite: suite)
			report(seconds: Double(nanoseconds() - loopStart) / 1e9, counter: counter, bytesBefore: bytesBefore)
			return
		case .burstRaw:
			for index in 0..<Self.keyCount {
				suite.set(index, forKey: "key\(index)")
			}

			suite.synchronize()
		case .readAllOurs:
			var total = 0
			for index in 0..<Self.keyCount {
				let key = Defaults.Key<Window?>("window\(index)", suite: suite)
				total += suite[key]?.width ?? 0
			}

			consume(total)
		case .loadNone, .loadOurs, .loadRaw, .secondOurs, .secondRaw:
			return
		case .readAllRaw:
			var total = 0
			for index in 0..<Self.keyCount {
				let text = suite.object(forKey: "window\(index)") as? String ?? ""
				total += (try? jsonDecoder.decode(Window.self, from: Data(text.utf8)))?.width ?? 0
			}

			consume(total)
		}

		report(seconds: Double(nanoseconds() - start) / 1e9, counter: counter, bytesBefore: bytesBefore)
	}

	private func report(seconds: Double, counter: FileWriteCounter, bytesBefore: Int) {
		let report = Report(
			seconds: seconds,
			fileWrites: counter.count(),
			bytesWritten: Self.bytesWrittenByProcess() - bytesBefore,
			peakMemoryBytes: Self.peakMemory()
		)
		print(String(decoding: try! JSONEncoder().encode(report), as: UTF8.self))
	}

	/**
	Loads the 10,000-key suite its parent wrote (or not, for the baseline);
	reports the file's size as bytes written. Written by the parent, so that
	writing it warms neither Foundation's property-list code nor the
	allocator for the load: this process does the load alone.
	*/
	private func load(suiteName: String) throws {
		if self != .loadNone {
			firstRead(of: UserDefaults(suiteName: suiteName)!)
		}

		let fileBytes = (try FileManager.default.attributesOfItem(atPath: suiteFile(named: suiteName).path)[.size] as? Int) ?? 0
		let report = Report(seconds: 0, fileWrites: 0, bytesWritten: fileBytes, peakMemoryBytes: Self.peakMemory())
		print(String(decoding: try JSONEncoder().encode(report), as: UTF8.self))
	}

	/**
	Loads a 10,000-key suite in a process that already loaded one, and
	reports how much resident memory the second added: what one more suite
	costs once the code is paged in and the allocator is warm.
	*/
	private func loadSecond() throws {
		let first = makeSuite("\(rawValue).first", keyCount: Self.keyCount)
		let second = makeSuite("\(rawValue).second", keyCount: Self.keyCount)
		firstRead(of: first)
		let before = Self.residentMemory()
		firstRead(of: second)
		let report = Report(seconds: 0, fileWrites: 0, bytesWritten: 0, peakMemoryBytes: Self.residentMemory() - before)
		print(String(decoding: try JSONEncoder().encode(report), as: UTF8.self))
	}

	/// The first read of `suite`, which loads it: through a key (ours) or raw, as the run says.
	private func firstRead(of suite: UserDefaults) {
		switch self {
		case .loadOurs, .secondOurs:
			consume(suite[Defaults.Key<Int>("filler1", default: 0, suite: suite)])
		case .loadRaw, .secondRaw:
			consume(suite.object(forKey: "filler1"))
		default:
			break
		}
	}

	private func writeFileOfWindows(suiteName: String) throws {
		var contents: [String: Any] = [:]
		for index in 0..<Self.keyCount {
			let json = try jsonEncoder.encode(Window(width: index, height: 600, title: "Window \(index)"))
			contents["window\(index)"] = String(decoding: json, as: UTF8.self)
		}

		let data = try PropertyListSerialization.data(fromPropertyList: contents, format: .binary, options: 0)
		try data.write(to: Benchmark.configFolder.appendingPathComponent("\(suiteName).plist"))
	}

	/// This process's peak resident memory (`VmHWM`; `ru_maxrss` would include the parent's, inherited across `exec`).
	static func peakMemory() -> Int {
		procValue(file: "/proc/self/status", field: "VmHWM:").map { $0 * 1024 } ?? 0
	}

	/// This process's resident memory now (`VmRSS`).
	static func residentMemory() -> Int {
		procValue(file: "/proc/self/status", field: "VmRSS:").map { $0 * 1024 } ?? 0
	}

	/// Bytes this process passed to `write(2)` and friends so far (`wchar` in `/proc/self/io`).
	static func bytesWrittenByProcess() -> Int {
		procValue(file: "/proc/self/io", field: "wchar:") ?? 0
	}

	/// The number after `field` in a `/proc` file (units, such as `kB`, left off).
	private static func procValue(file: String, field: String) -> Int? {
		guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
			return nil
		}

		for line in text.split(separator: "\n") where line.hasPrefix(field) {
			return Int(line.dropFirst(field.count).split(whereSeparator: \.isWhitespace).first ?? "")
		}

		return nil
	}

	/// Runs in the parent: starts the child (`fixture`: the suite a load run loads), waits, and returns its report.
	func run(fixture: String? = nil) throws -> Report {
		let output = Pipe()
		var actions = posix_spawn_file_actions_t()
		posix_spawn_file_actions_init(&actions)
		defer { posix_spawn_file_actions_destroy(&actions) }
		posix_spawn_file_actions_adddup2(&actions, output.fileHandleForWriting.fileDescriptor, 1)

		let executable = Benchmark.executablePath
		let words: [String] = [executable, "--child", rawValue] + (fixture.map { [$0] } ?? [])
		let argv = words.map { strdup($0) } + [nil]
		defer { argv.forEach { free($0) } }
		var pid: pid_t = 0
		guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else {
			throw BenchmarkError("cannot start \(executable)")
		}

		try output.fileHandleForWriting.close()
		let data = output.fileHandleForReading.readDataToEndOfFile()
		var status: Int32 = 0
		while waitpid(pid, &status, 0) < 0, errno == EINTR {}
		guard status == 0 else {
			throw BenchmarkError("\(rawValue) failed with status \(status)")
		}

		return try JSONDecoder().decode(Report.self, from: data)
	}
}

/// Counts the times a file got new contents: replaced by a rename, or written in place.
final class FileWriteCounter {
	private let descriptor: Int32
	private let fileName: String

	init(watching folder: URL, fileName: String) throws {
		self.fileName = fileName
		descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
		guard descriptor >= 0, inotify_add_watch(descriptor, folder.path, UInt32(IN_MOVED_TO | IN_CLOSE_WRITE)) >= 0 else {
			throw BenchmarkError("inotify is unavailable")
		}
	}

	deinit {
		close(descriptor)
	}

	/// The events for the file since the counter started.
	func count() -> Int {
		var count = 0
		var buffer = [UInt8](repeating: 0, count: 64 * 1024)
		let headerSize = MemoryLayout<inotify_event>.size
		while true {
			let length = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
			guard length > 0 else {
				return count
			}

			buffer.withUnsafeBytes { bytes in
				var offset = 0
				while offset + headerSize <= length {
					let nameLength = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
					let name = String(decoding: bytes[(offset + headerSize)..<(offset + headerSize + nameLength)].prefix { $0 != 0 }, as: UTF8.self)
					if name == fileName {
						count += 1
					}

					offset += headerSize + nameLength
				}
			}
		}
	}
}

struct BenchmarkError: Error, CustomStringConvertible {
	let description: String

	init(_ description: String) {
		self.description = description
	}
}
