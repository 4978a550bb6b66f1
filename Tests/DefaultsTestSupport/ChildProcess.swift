import Foundation
#if canImport(Glibc)
import Glibc
#endif

/**
Runs one of the package's executables (built next to the test bundle) as a
separate process, collecting what it prints.

Spawned with `posix_spawn` and reaped with `waitpid` rather than through
Foundation's `Process`, whose exit monitoring can miss a child killed with
SIGKILL and then wait forever.

```swift
let result = try ChildProcess.run("defaults", ["read", "com.example.demo"], environment: environment)
#expect(result.status == 0)
```
*/
public final class ChildProcess: @unchecked Sendable {
	/// The exit status and everything printed by a finished process.
	public struct Result: Sendable {
		public let status: Int32
		/// The standard output's bytes, for output that is not text.
		public let outputData: Data
		public let errorOutput: String

		public var output: String {
			String(decoding: outputData, as: UTF8.self)
		}

		/// The standard output, split into lines (without the final empty one).
		public var lines: [String] {
			var lines = output.components(separatedBy: "\n")
			if lines.last == "" {
				lines.removeLast()
			}

			return lines
		}
	}

	private let pid: pid_t
	private let output: Stream
	private let errorOutput: Stream
	private let lock = NSLock()
	private var exitStatus: Int32?
	private var waitStatus: Int32?

	/// The built executable called `name`, found next to the test bundle.
	public static func executable(named name: String) -> URL {
		let candidates = [
			Bundle.main.executableURL?.deletingLastPathComponent(),
			URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
		]
		for folder in candidates.compactMap({ $0 }) {
			let executable = folder.appendingPathComponent(name)
			if FileManager.default.isExecutableFile(atPath: executable.path) {
				return executable
			}
		}

		fatalError("\(name) not found next to the test bundle; build with `swift build --build-tests`")
	}

	/// Starts `executable` with `arguments`; `input` is written to its standard input, which is then closed.
	public convenience init(_ executable: String, _ arguments: [String], environment: [String: String], input: Data? = nil) throws {
		try self.init(path: Self.executable(named: executable).path, arguments, environment: environment, input: input)
	}

	/// Starts the program at `path` (a script, a tool of the system) with `arguments`.
	public init(path: String, _ arguments: [String], environment: [String: String], input: Data? = nil) throws {
		let output = try Stream()
		let errorOutput = try Stream()
		let inputPipe = try Self.closeOnExecPipe()

		var actions = posix_spawn_file_actions_t()
		posix_spawn_file_actions_init(&actions)
		defer { posix_spawn_file_actions_destroy(&actions) }
		posix_spawn_file_actions_adddup2(&actions, inputPipe.read, 0)
		posix_spawn_file_actions_adddup2(&actions, output.writeEnd, 1)
		posix_spawn_file_actions_adddup2(&actions, errorOutput.writeEnd, 2)

		let argv = ([path] + arguments).map { strdup($0) } + [nil]
		let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
		defer {
			argv.forEach { free($0) }
			envp.forEach { free($0) }
		}

		// The child starts with the termination signals at their default and none blocked, whatever the test runner inherited.
		var attributes = posix_spawnattr_t()
		posix_spawnattr_init(&attributes)
		defer { posix_spawnattr_destroy(&attributes) }
		var defaults = sigset_t()
		sigemptyset(&defaults)
		for signal in [SIGTERM, SIGINT, SIGHUP] {
			sigaddset(&defaults, signal)
		}
		var unblocked = sigset_t()
		sigemptyset(&unblocked)
		posix_spawnattr_setsigdefault(&attributes, &defaults)
		posix_spawnattr_setsigmask(&attributes, &unblocked)
		// A process group of its own, so that killing it also kills what it started (a forked child).
		posix_spawnattr_setpgroup(&attributes, 0)
		posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

		var pid: pid_t = 0
		let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
		close(inputPipe.read)
		output.startReading()
		errorOutput.startReading()
		guard result == 0 else {
			close(inputPipe.write)
			throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL)
		}

		self.pid = pid
		self.output = output
		self.errorOutput = errorOutput

		if let input {
			input.withUnsafeBytes { bytes in
				var offset = 0
				while offset < bytes.count {
					let written = write(inputPipe.write, bytes.baseAddress! + offset, bytes.count - offset)
					if written < 0, errno == EINTR {
						continue
					}

					guard written > 0 else {
						break
					}

					offset += written
				}
			}
		}

		close(inputPipe.write)
	}

	/// Runs `executable` to completion.
	public static func run(_ executable: String, _ arguments: [String], environment: [String: String], input: Data? = nil) throws -> Result {
		try run(path: Self.executable(named: executable).path, arguments, environment: environment, input: input)
	}

	/// Runs the program at `path` to completion.
	public static func run(path: String, _ arguments: [String], environment: [String: String], input: Data? = nil) throws -> Result {
		let process = try ChildProcess(path: path, arguments, environment: environment, input: input)
		let status = process.waitUntilExit()
		return Result(status: status, outputData: process.output.data, errorOutput: process.errorOutputText)
	}

	/// The process's id.
	public var processIdentifier: pid_t {
		pid
	}

	/// Everything printed to standard output so far.
	public var outputText: String {
		output.text
	}

	/// Everything printed to standard error so far.
	public var errorOutputText: String {
		errorOutput.text
	}

	/// Every complete line printed to standard output so far.
	public var receivedLines: [String] {
		var lines = outputText.components(separatedBy: "\n")
		lines.removeLast()
		return lines
	}

	/// Waits until a line of standard output satisfies `predicate` or `timeout` passes.
	public func waitForLine(timeout: TimeInterval, where predicate: (String) -> Bool) -> String? {
		let deadline = Date().addingTimeInterval(timeout)
		while Date() < deadline {
			if let line = receivedLines.first(where: predicate) {
				return line
			}

			Thread.sleep(forTimeInterval: 0.002)
		}

		return receivedLines.first(where: predicate)
	}

	/// Waits until standard error contains `text` or `timeout` passes.
	public func waitForErrorOutput(containing text: String, timeout: TimeInterval) -> Bool {
		let deadline = Date().addingTimeInterval(timeout)
		while Date() < deadline {
			if errorOutputText.contains(text) {
				return true
			}

			Thread.sleep(forTimeInterval: 0.002)
		}

		return errorOutputText.contains(text)
	}

	/// How long ``waitUntilExit()`` waits before it kills the process: a helper that hangs fails its test instead of hanging it.
	public static let longestRun: TimeInterval = 600

	/// Reaps the process; its exit code, or 128 + the signal that ended it (SIGKILL if it ran longer than ``longestRun``).
	@discardableResult
	public func waitUntilExit() -> Int32 {
		waitUntilExit(timeout: Self.longestRun) ?? reap()
	}

	private func reap() -> Int32 {
		if let exitStatus = lock.withLock({ exitStatus }) {
			return exitStatus
		}

		var status: Int32 = 0
		while waitpid(pid, &status, 0) < 0, errno == EINTR {}
		return reaped(status)
	}

	/// Whether the process has ended (and is reaped); never waits, never kills.
	public var hasExited: Bool {
		if lock.withLock({ exitStatus }) != nil {
			return true
		}

		var status: Int32 = 0
		guard waitpid(pid, &status, WNOHANG) == pid else {
			return false
		}

		_ = reaped(status)
		return true
	}

	/**
	Reaps the process if it ends within `timeout`; otherwise kills it and returns `nil`.

	A test of something that could hang uses this, so the test itself never can.
	*/
	public func waitUntilExit(timeout: TimeInterval) -> Int32? {
		let deadline = Date().addingTimeInterval(timeout)
		while Date() < deadline {
			if let exitStatus = lock.withLock({ exitStatus }) {
				return exitStatus
			}

			var status: Int32 = 0
			let result = waitpid(pid, &status, WNOHANG)
			if result == pid {
				return reaped(status)
			}

			if result < 0, errno != EINTR {
				return reap()
			}

			Thread.sleep(forTimeInterval: 0.002)
		}

		kill()
		return nil
	}

	/// The signal that ended the process, or `nil` when it exited (or has not been reaped yet).
	public var terminatingSignal: Int32? {
		guard let status = lock.withLock({ waitStatus }), status & 0x7f != 0 else {
			return nil
		}

		return status & 0x7f
	}

	private func reaped(_ status: Int32) -> Int32 {
		output.waitForEnd()
		errorOutput.waitForEnd()
		let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
		lock.withLock {
			exitStatus = code
			waitStatus = status
		}
		return code
	}

	/// Sends `signal` and reaps the process.
	@discardableResult
	public func stop(with signal: Int32) -> Int32 {
		send(signal)
		return waitUntilExit()
	}

	/// Sends `signal` without waiting (SIGSTOP, SIGCONT, or a signal the process handles).
	public func send(_ signal: Int32) {
		Glibc.kill(pid, signal)
	}

	/// Ends the process at once, as a crash would, and every process it started that is still in its group.
	public func kill() {
		Glibc.kill(-pid, SIGKILL)
		send(SIGKILL)
		_ = reap()
	}

	/// A pipe whose ends are closed on exec, so processes spawned at the same time by other tests do not inherit them.
	fileprivate static func closeOnExecPipe() throws -> (read: Int32, write: Int32) {
		var ends: [Int32] = [0, 0]
		guard pipe(&ends) == 0 else {
			throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE)
		}

		for end in ends {
			_ = fcntl(end, F_SETFD, FD_CLOEXEC)
		}

		return (ends[0], ends[1])
	}
}

/// One output pipe of a child, drained by a thread so the child never blocks on a full pipe.
private final class Stream: @unchecked Sendable {
	let readEnd: Int32
	let writeEnd: Int32
	private let lock = NSLock()
	private var bytes = Data()
	private let finished = DispatchSemaphore(value: 0)

	init() throws {
		(readEnd, writeEnd) = try ChildProcess.closeOnExecPipe()
	}

	var data: Data {
		lock.withLock { bytes }
	}

	var text: String {
		String(decoding: data, as: UTF8.self)
	}

	func startReading() {
		close(writeEnd)
		let thread = Thread { [self] in
			var buffer = [UInt8](repeating: 0, count: 4096)
			while true {
				let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
				if count < 0, errno == EINTR {
					continue
				}

				guard count > 0 else {
					break
				}

				lock.withLock { bytes.append(contentsOf: buffer[0..<count]) }
			}

			close(readEnd)
			finished.signal()
		}
		thread.start()
	}

	func waitForEnd() {
		_ = finished.wait(timeout: .now() + 10)
	}
}
