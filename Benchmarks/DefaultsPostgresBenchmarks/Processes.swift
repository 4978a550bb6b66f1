#if Postgres
import Foundation
#if canImport(Glibc)
import Glibc
#endif

func microseconds() -> Int64 {
	Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
}

func say(_ line: String) {
	FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Runs this executable again with `arguments`, in `configFolder` (a new temporary one when `nil`), and waits for it.
func relaunch(_ arguments: [String], configFolder: URL?) throws {
	let folder = configFolder ?? FileManager.default.temporaryDirectory.appendingPathComponent("defaults-pg-benchmarks-\(UUID().uuidString)")
	try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
	defer { try? FileManager.default.removeItem(at: folder) }

	let process = Child(arguments, configFolder: folder)
	process.process.standardOutput = FileHandle.standardOutput
	try process.process.run()
	process.process.waitUntilExit()
	if process.process.terminationStatus != 0 {
		throw BenchmarkError("the measuring run failed (status \(process.process.terminationStatus))")
	}
}

/// This executable running in another process, its output read line by line.
final class Child: @unchecked Sendable {
	let process = Process()
	private let lock = NSLock()
	private var buffer = ""
	private var lines: [String] = []

	init(_ arguments: [String], configFolder: URL, environment overrides: [String: String] = [:]) {
		process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
		process.arguments = arguments
		var environment = ProcessInfo.processInfo.environment
		environment["XDG_CONFIG_HOME"] = configFolder.path
		environment.merge(overrides) { _, new in new }
		process.environment = environment
	}

	/// Starts it with its standard output captured.
	func start() throws {
		let pipe = Pipe()
		process.standardOutput = pipe
		pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
			self?.append(String(decoding: handle.availableData, as: UTF8.self))
		}
		try process.run()
	}

	private func append(_ text: String) {
		lock.withLock {
			buffer += text
			while let newline = buffer.firstIndex(of: "\n") {
				lines.append(String(buffer[..<newline]))
				buffer = String(buffer[buffer.index(after: newline)...])
			}
		}
	}

	/// The first line printed so far that `predicate` accepts; never waits.
	func line(where predicate: (String) -> Bool) -> String? {
		lock.withLock { lines.first(where: predicate) }
	}

	/// Waits (polling every 100 µs) for a line that `predicate` accepts, up to `timeout` seconds.
	func waitForLine(timeout: TimeInterval, where predicate: (String) -> Bool) -> String? {
		let deadline = Date().addingTimeInterval(timeout)
		repeat {
			if let line = lock.withLock({ lines.first(where: predicate) }) {
				return line
			}

			usleep(100)
		} while Date() < deadline
		return nil
	}

	func stop() {
		process.terminate()
		process.waitUntilExit()
	}

	/// Ends it at once (SIGKILL), as a crash would.
	func kill() {
		Glibc.kill(process.processIdentifier, SIGKILL)
		process.waitUntilExit()
	}
}
#endif
