import Foundation
import Testing
@testable import Defaults
#if canImport(Glibc)
import Glibc
#endif

/**
Runs the `DefaultsTestHelper` executable as a separate process, with the tests'
configuration folder.

Spawned with `posix_spawn` and reaped with `waitpid` rather than through
Foundation's `Process`, whose exit monitoring can miss a child killed with
SIGKILL and then wait forever.
*/
final class HelperProcess: @unchecked Sendable {
	static let executable: URL = {
		let candidates = [
			Bundle.main.executableURL?.deletingLastPathComponent(),
			URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
		]
		for folder in candidates.compactMap({ $0 }) {
			let helper = folder.appendingPathComponent("DefaultsTestHelper")
			if FileManager.default.isExecutableFile(atPath: helper.path) {
				return helper
			}
		}

		fatalError("DefaultsTestHelper not found next to the test bundle; build with `swift build --build-tests`")
	}()

	private let pid: pid_t
	private let reader: Thread
	private let received: Locked<Data>
	private let finishedReading = DispatchSemaphore(value: 0)
	private let lock = NSLock()
	private var lines: [String] = []
	private var exitStatus: Int32?

	init(_ arguments: [String], environment: [String: String]? = nil) throws {
		var environment = environment ?? ProcessInfo.processInfo.environment
		environment["XDG_CONFIG_HOME"] = environment["XDG_CONFIG_HOME"] ?? TestEnvironment.configHome.path

		// Close-on-exec, so helpers spawned at the same time by other tests do not
		// inherit this pipe and keep it open after this helper has exited.
		var pipeEnds: [Int32] = [0, 0]
		guard pipe(&pipeEnds) == 0 else {
			throw POSIXError(.EMFILE)
		}

		for end in pipeEnds {
			_ = fcntl(end, F_SETFD, FD_CLOEXEC)
		}

		var actions = posix_spawn_file_actions_t()
		posix_spawn_file_actions_init(&actions)
		defer { posix_spawn_file_actions_destroy(&actions) }
		posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
		posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
		posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

		let argv = ([Self.executable.path] + arguments).map { strdup($0) } + [nil]
		let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
		defer {
			argv.forEach { free($0) }
			envp.forEach { free($0) }
		}

		var pid: pid_t = 0
		let result = posix_spawn(&pid, Self.executable.path, &actions, nil, argv, envp)
		close(pipeEnds[1])
		guard result == 0 else {
			close(pipeEnds[0])
			throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL)
		}

		self.pid = pid
		let readEnd = pipeEnds[0]
		let received = Locked(Data())
		let finished = finishedReading
		reader = Thread {
			var buffer = [UInt8](repeating: 0, count: 4096)
			while true {
				let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
				if count < 0, errno == EINTR {
					continue
				}

				guard count > 0 else {
					break
				}

				received.withLock { $0.append(contentsOf: buffer[0..<count]) }
			}

			close(readEnd)
			finished.signal()
		}
		self.received = received
		reader.start()
	}

	/// Runs a helper to completion and returns its exit status and output lines.
	@discardableResult
	static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> (status: Int32, lines: [String]) {
		let helper = try HelperProcess(arguments, environment: environment)
		let status = helper.waitUntilExit()
		return (status, helper.receivedLines)
	}

	/// Every complete line the helper printed so far.
	var receivedLines: [String] {
		let text = String(decoding: received.withLock { $0 }, as: UTF8.self)
		var lines = text.components(separatedBy: "\n")
		lines.removeLast()
		return lines
	}

	/// Waits until a line satisfies `predicate` or `timeout` passes.
	func waitForLine(timeout: TimeInterval, where predicate: (String) -> Bool) -> String? {
		let deadline = Date().addingTimeInterval(timeout)
		while Date() < deadline {
			if let line = receivedLines.first(where: predicate) {
				return line
			}

			Thread.sleep(forTimeInterval: 0.002)
		}

		return receivedLines.first(where: predicate)
	}

	/// Reaps the helper; its exit code, or 128 + the signal that ended it.
	@discardableResult
	func waitUntilExit() -> Int32 {
		if let exitStatus = lock.withLock({ exitStatus }) {
			return exitStatus
		}

		var status: Int32 = 0
		while waitpid(pid, &status, 0) < 0, errno == EINTR {}
		_ = finishedReading.wait(timeout: .now() + 10)
		let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
		lock.withLock { exitStatus = code }
		return code
	}

	/// Ends the helper at once, as a crash would.
	func kill() {
		Glibc.kill(pid, SIGKILL)
		waitUntilExit()
	}
}

extension TestSuite {
	/// The suite as Foundation reads its file in a fresh process.
	func domainReadByAnotherProcess() throws -> [String: Any] {
		try Defaults.flush(suite: defaults)
		let result = try HelperProcess.run(["dump", name])
		let encoded = try #require(result.lines.first)
		let data = try #require(Data(base64Encoded: encoded))
		return try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
	}
}
