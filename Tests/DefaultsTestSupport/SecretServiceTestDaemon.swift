#if os(Linux)
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/**
The throwaway gnome-keyring `scripts/secret-service run` starts, described by
its exports, and the hostile states the Secret Service tests put it in: a
locked keyring, a stopped daemon. Each state is entered and left in one
place, so no test can leave the daemon stopped or locked for the next one,
whatever it throws.

```swift
try SecretServiceTestDaemon.whileStopped {
	#expect(Defaults[ordinaryKey] == 1)
}
```
*/
public enum SecretServiceTestDaemon {
	private static let environment = ProcessInfo.processInfo.environment

	/// Whether the tests run inside `scripts/secret-service run`; without it the daemon's tests are skipped (loudly: see `secretServiceTestsRun`).
	public static let isAvailable = environment["DEFAULTS_SECRET_SERVICE"] == "1" && environment["DEFAULTS_SECRET_SERVICE_CONTROL"] != nil

	/// Runs `scripts/secret-service COMMAND` (lock, unlock, pid) against the run's daemon.
	@discardableResult
	public static func control(_ command: String) throws -> String {
		guard let script = environment["DEFAULTS_SECRET_SERVICE_CONTROL"] else {
			throw ControlFailure(description: "not inside scripts/secret-service run (DEFAULTS_SECRET_SERVICE_CONTROL is not set)")
		}

		let result = try ChildProcess.run(path: script, [command], environment: environment)
		guard result.status == 0 else {
			throw ControlFailure(description: "scripts/secret-service \(command) exited \(result.status): \(result.errorOutput)")
		}

		return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
	}

	/// The daemon's process id, asked each time: `unlock` replaces the daemon.
	public static func pid() throws -> pid_t {
		let answer = try control("pid")
		guard let pid = pid_t(answer) else {
			throw ControlFailure(description: "scripts/secret-service pid answered \"\(answer)\"")
		}

		return pid
	}

	/// Runs `body` with the default collection locked; unlocks it afterwards (replacing the daemon), whatever `body` throws.
	public static func whileLocked<Result>(_ body: () throws -> Result) throws -> Result {
		try control("lock")
		let result = Swift.Result { try body() }
		try control("unlock")
		return try result.get()
	}

	/// Runs `body` with the daemon stopped (`SIGSTOP`); continues it afterwards, whatever `body` throws.
	public static func whileStopped<Result>(_ body: () throws -> Result) throws -> Result {
		let daemon = try pid()
		guard kill(daemon, SIGSTOP) == 0 else {
			throw ControlFailure(description: "could not stop the daemon \(daemon): errno \(errno)")
		}

		defer { kill(daemon, SIGCONT) }
		return try body()
	}

	/// Async form of ``whileStopped(_:)``, for bodies that wait with `eventually`.
	public static func whileStopped<Result>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result) async throws -> Result {
		let daemon = try pid()
		guard kill(daemon, SIGSTOP) == 0 else {
			throw ControlFailure(description: "could not stop the daemon \(daemon): errno \(errno)")
		}

		defer { kill(daemon, SIGCONT) }
		return try await body()
	}

	/// The label and schema of the one item of `key` in `suite`, as another Secret Service client (Seahorse, gdbus) sees it.
	public static func itemDescription(suite: String, key: String) throws -> String {
		func gdbus(_ arguments: [String]) throws -> String {
			let result = try ChildProcess.run(path: "/usr/bin/gdbus", ["call", "--session", "--dest", "org.freedesktop.secrets"] + arguments, environment: environment)
			return result.output
		}

		let found = try gdbus([
			"--object-path", "/org/freedesktop/secrets", "--method", "org.freedesktop.Secret.Service.SearchItems", "{'suite': '\(suite)', 'key': '\(key)'}",
		])
		guard let path = found.split(separator: "'").first(where: { $0.hasPrefix("/org/freedesktop/secrets/collection/") }) else {
			throw ControlFailure(description: "no item of \(key) in \(suite): \(found)")
		}

		let label = try gdbus(["--object-path", String(path), "--method", "org.freedesktop.DBus.Properties.Get", "org.freedesktop.Secret.Item", "Label"])
		let attributes = try gdbus(["--object-path", String(path), "--method", "org.freedesktop.DBus.Properties.Get", "org.freedesktop.Secret.Item", "Attributes"])
		return "\(String(path)) \(label) \(attributes)"
	}

	/// A suite name no other test uses.
	public static func uniqueSuite(_ label: String = #function) -> String {
		"defaults-secret-tests-\(label.prefix(30).filter(\.isLetter))-\(UUID().uuidString.prefix(8))"
	}

	/// Writes a measurement where the test log shows it.
	public static func report(_ line: String) {
		FileHandle.standardError.write(Data("SecretService: \(line)\n".utf8))
	}

	/// The system-wide monotonic clock in nanoseconds, which another process reads the same: for latencies between processes.
	public static func monotonicNanoseconds() -> UInt64 {
		var now = timespec()
		clock_gettime(CLOCK_MONOTONIC, &now)
		return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
	}

	public struct ControlFailure: Error, CustomStringConvertible {
		public let description: String
	}
}
#endif
