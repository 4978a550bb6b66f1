#if os(Linux)
import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/**
The Secret Service client against a real gnome-keyring, one test at a time:
some lock the keyring or stop the daemon, which would break a test beside them.
*/
@Suite("SecretService client", .serialized)
struct SecretServiceClientTests {
	private let client = SecretServiceClient(applicationName: "DefaultsTests", timeout: .seconds(1))

	@Test("SecretService: the daemon's tests run, inside scripts/secret-service run (else they are skipped, loudly)")
	func secretServiceTestsRun() {
		guard !SecretServiceTestDaemon.isAvailable else {
			return
		}

		let missing = "NO SECRET SERVICE: every test against gnome-keyring was SKIPPED. Run them with `scripts/secret-service run swift test --skip-build --traits Combine,Postgres,Configuration --filter SecretService`."
		FileHandle.standardError.write(Data("\n*** \(missing) ***\n\n".utf8))
		let isRequired = ProcessInfo.processInfo.environment["DEFAULTS_SECRETS_REQUIRED"] == "1"
		Issue.record(Comment(rawValue: missing), severity: isRequired ? .error : .warning)
	}

	// MARK: Without a daemon: these run everywhere

	@Test("SecretService: no session bus is unavailable in milliseconds", arguments: ["", "unix:path=/nonexistent/defaults-secret-tests/bus"])
	func secretServiceNoBus(address: String) throws {
		let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-secret-tests-\(UUID().uuidString)")
		try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
		defer { try? FileManager.default.removeItem(at: runtime) }
		var environment = ProcessInfo.processInfo.environment
		environment["DBUS_SESSION_BUS_ADDRESS"] = address
		// An empty runtime folder: GLib would otherwise fall back to $XDG_RUNTIME_DIR/bus, the user's own.
		environment["XDG_RUNTIME_DIR"] = runtime.path
		let started = ContinuousClock.now
		let result = try ChildProcess.run("DefaultsTestHelper", ["secret-lookup", "suite", "key", "1000"], environment: environment)
		let wall = ContinuousClock.now - started
		let error = try #require(result.lines.first { $0.hasPrefix("error ") })
		#expect(error.contains("unavailable"), "\(result.lines)")
		let elapsed = try #require(result.lines.last.flatMap { Double($0.replacingOccurrences(of: "elapsed ", with: "")) })
		SecretServiceTestDaemon.report("no bus (\(address.isEmpty ? "no address" : address)): \(error.dropFirst(6)) in \(elapsed) ms inside the process (\(wall) with its start)")
		// Measured at 1–10 ms; the bound only tells "answered at once" from the call's 1 s timeout and D-Bus's 25 s, with room for a loaded machine and the sanitizer.
		#expect(elapsed < 500)
		try expectSecretKeyReadsAtOnce(environment: environment)
	}

	@Test(
		"SecretService: a bus without a Secret Service is unavailable in milliseconds",
		.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon"))
	)
	func secretServiceNoService() throws {
		let folder = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-secret-tests-\(UUID().uuidString)")
		try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
		defer { try? FileManager.default.removeItem(at: folder) }
		// A session bus of its own with no service files: nothing can be activated on it.
		let configuration = folder.appendingPathComponent("bus.conf")
		try Data("""
			<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
			<busconfig><type>session</type><listen>unix:dir=\(folder.path)</listen><auth>EXTERNAL</auth>
			<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
			""".utf8).write(to: configuration)
		let bus = try ChildProcess(
			path: "/usr/bin/dbus-daemon",
			["--config-file=\(configuration.path)", "--nofork", "--print-address=1"],
			environment: ProcessInfo.processInfo.environment
		)
		defer { bus.kill() }
		let address = try #require(bus.waitForLine(timeout: 5) { $0.hasPrefix("unix:") }, "\(bus.errorOutputText)")
		var environment = ProcessInfo.processInfo.environment
		environment["DBUS_SESSION_BUS_ADDRESS"] = address
		environment["XDG_RUNTIME_DIR"] = folder.path
		let result = try ChildProcess.run("DefaultsTestHelper", ["secret-lookup", "suite", "key", "1000"], environment: environment)
		let error = try #require(result.lines.first { $0.hasPrefix("error ") }, "\(result.lines) \(result.errorOutput)")
		#expect(error.contains("unavailable"), "\(error)")
		let elapsed = try #require(result.lines.last.flatMap { Double($0.replacingOccurrences(of: "elapsed ", with: "")) })
		SecretServiceTestDaemon.report("bus without a Secret Service: \(error.dropFirst(6)) in \(elapsed) ms inside the process")
		// Measured at 1–10 ms; the bound only tells "answered at once" from the call's 1 s timeout and D-Bus's 25 s, with room for a loaded machine and the sanitizer.
		#expect(elapsed < 500)
		try expectSecretKeyReadsAtOnce(environment: environment)
	}

	/// A secret key's first read, which also starts listening for the service's signals, answers at once with the default and an 'unavailable' diagnostic, and the process exits: listening neither waits nor keeps it alive.
	private func expectSecretKeyReadsAtOnce(environment: [String: String]) throws {
		let result = try ChildProcess.run("DefaultsTestHelper", ["secret-read", SecretServiceTestDaemon.uniqueSuite(), "token"], environment: environment)
		#expect(result.status == 0, "\(result.lines) \(result.errorOutput)")
		#expect(result.lines.contains("none"), "\(result.lines)")
		#expect(result.lines.contains { $0.hasPrefix("diagnostic secretUnavailable ") }, "\(result.lines)")
		let elapsed = try #require(result.lines.last.flatMap { Double($0.replacingOccurrences(of: "elapsed ", with: "")) })
		#expect(elapsed < 500)
	}

	/**
	A session bus that takes the connection and never answers: the read's own
	call gives up at its deadline, and listening for the service's signals,
	which starts at the same first access, never makes GLib's connection
	first (its making holds a lock every call would wait on, past any deadline).
	*/
	@Test("SecretService: a session bus that never answers costs a secret key's first read its timeout, never a hang")
	func secretServiceSilentBus() throws {
		let folder = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-secret-tests-\(UUID().uuidString)")
		try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
		defer { try? FileManager.default.removeItem(at: folder) }
		// Listening, never accepting: the kernel completes each connection, and nothing ever answers on it.
		let path = folder.appendingPathComponent("bus").path
		let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
		#expect(listener >= 0)
		defer { close(listener) }
		var address = sockaddr_un()
		address.sun_family = sa_family_t(AF_UNIX)
		withUnsafeMutableBytes(of: &address.sun_path) { bytes in
			for (index, byte) in path.utf8.enumerated() {
				bytes[index] = byte
			}
		}
		let bound = withUnsafePointer(to: &address) {
			$0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
		}
		#expect(bound == 0 && listen(listener, 16) == 0)

		var environment = ProcessInfo.processInfo.environment
		environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(path)"
		environment["XDG_RUNTIME_DIR"] = folder.path
		let child = try HelperProcess.start(["secret-read", SecretServiceTestDaemon.uniqueSuite(), "token"], environment: environment)
		defer { child.kill() }
		#expect(child.waitUntilExit(timeout: 20) == 0, "the read hung: \(child.receivedLines)")
		#expect(child.receivedLines.contains("none"), "\(child.receivedLines)")
		#expect(child.receivedLines.contains { $0.hasPrefix("diagnostic secret") }, "\(child.receivedLines)")
	}

	@Test("SecretService: the errors read as one line each")
	func secretServiceErrorDescriptions() {
		let errors: [SecretServiceError] = [.unavailable(reason: "no session bus"), .locked, .timedOut(.seconds(1)), .failed(message: "refused")]
		for error in errors {
			#expect(!error.description.contains("\n"))
		}

		#expect(SecretServiceError.timedOut(.milliseconds(1500)).description.contains("1.5 s"))
		#expect(client.label(forKey: "token") == "DefaultsTests – token")
	}

	// MARK: Against the daemon

	@Test("SecretService: a string round-trips, is replaced, and is cleared", .enabled(if: SecretServiceTestDaemon.isAvailable))
	func secretServiceRoundTrip() throws {
		let suite = SecretServiceTestDaemon.uniqueSuite()
		defer { _ = try? client.clear(suite: suite, key: "token") }
		#expect(try client.lookup(suite: suite, key: "token") == nil)
		try client.store("s3cret – ünïcode ✓", suite: suite, key: "token")
		#expect(try client.lookupString(suite: suite, key: "token") == "s3cret – ünïcode ✓")
		// In the default collection (the login keyring), labelled for a person, with the schema and both attributes.
		let item = try SecretServiceTestDaemon.itemDescription(suite: suite, key: "token")
		#expect(item.hasPrefix("/org/freedesktop/secrets/collection/login/"), "\(item)")
		#expect(item.contains("'DefaultsTests – token'"), "\(item)")
		#expect(item.contains("'xdg:schema': 'org.swift.Defaults'") && item.contains("'suite': '\(suite)'") && item.contains("'key': 'token'"), "\(item)")
		try client.store("second", suite: suite, key: "token")
		#expect(try client.lookupString(suite: suite, key: "token") == "second")
		// Another suite's key of the same name is another item.
		#expect(try client.lookup(suite: suite + "-other", key: "token") == nil)
		#expect(try client.clear(suite: suite, key: "token"))
		#expect(try client.lookup(suite: suite, key: "token") == nil)
		#expect(try !client.clear(suite: suite, key: "token"))
		// Empty data is a value, not "no value".
		try client.store(Data(), suite: suite, key: "token")
		#expect(try client.lookup(suite: suite, key: "token") == Data())
	}

	@Test("SecretService: another process reads what this one stored", .enabled(if: SecretServiceTestDaemon.isAvailable))
	func secretServiceOtherProcess() throws {
		let suite = SecretServiceTestDaemon.uniqueSuite()
		defer { _ = try? client.clear(suite: suite, key: "shared") }
		try client.store("from the tests", suite: suite, key: "shared")
		let result = try ChildProcess.run("DefaultsTestHelper", ["secret-lookup", suite, "shared", "2000"], environment: ProcessInfo.processInfo.environment)
		#expect(result.lines.first == "value from the tests", "\(result.lines) \(result.errorOutput)")
	}

	@Test("SecretService: a 1 MB value round-trips", .enabled(if: SecretServiceTestDaemon.isAvailable))
	func secretServiceLargeValue() throws {
		let suite = SecretServiceTestDaemon.uniqueSuite()
		let client = SecretServiceClient(applicationName: "DefaultsTests", timeout: .seconds(10))
		defer { _ = try? client.clear(suite: suite, key: "blob") }
		var generator = SystemRandomNumberGenerator()
		let value = Data((0..<1_048_576).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
		let clock = ContinuousClock()
		let stored = try clock.measure { try client.store(value, suite: suite, key: "blob") }
		var read: Data?
		let lookedUp = try clock.measure { read = try client.lookup(suite: suite, key: "blob") }
		#expect(read == value)
		SecretServiceTestDaemon.report("1 MB: stored in \(stored), read in \(lookedUp)")
	}

	@Test("SecretService: 1,000 items", .enabled(if: SecretServiceTestDaemon.isAvailable))
	func secretServiceThousandItems() throws {
		let suite = SecretServiceTestDaemon.uniqueSuite()
		let keys = (0..<1000).map { "key-\($0)" }
		let clock = ContinuousClock()
		defer {
			for key in keys {
				_ = try? client.clear(suite: suite, key: key)
			}
		}

		// The first and the last hundred apart: gnome-keyring writes its whole keyring file at each change.
		var firstHundred = Duration.zero
		var lastHundred = Duration.zero
		let stored = try clock.measure {
			for (index, key) in keys.enumerated() {
				let one = try clock.measure { try client.store("value of \(key)", suite: suite, key: key) }
				if index < 100 {
					firstHundred += one
				} else if index >= 900 {
					lastHundred += one
				}
			}
		}
		var mismatches = 0
		let read = try clock.measure {
			for key in keys where try client.lookupString(suite: suite, key: key) != "value of \(key)" {
				mismatches += 1
			}
		}
		#expect(mismatches == 0)
		var notCleared = 0
		let cleared = try clock.measure {
			for key in keys where try !client.clear(suite: suite, key: key) {
				notCleared += 1
			}
		}
		#expect(notCleared == 0)
		SecretServiceTestDaemon.report("1,000 items: stored in \(stored) (the first 100 in \(firstHundred), the last 100 in \(lastHundred)), read in \(read), cleared in \(cleared)")
	}

	@Test("SecretService: a locked keyring is locked, not \"no value\"", .enabled(if: SecretServiceTestDaemon.isAvailable))
	func secretServiceLocked() throws {
		let suite = SecretServiceTestDaemon.uniqueSuite()
		try client.store("kept", suite: suite, key: "token")
		defer { _ = try? client.clear(suite: suite, key: "token") }
		#expect(try client.isLocked() == false)
		let locking = ContinuousClock.now
		try SecretServiceTestDaemon.whileLocked { () throws in
			#expect(try client.isLocked() == true)
			SecretServiceTestDaemon.report("locked by scripts/secret-service lock in \(ContinuousClock.now - locking)")
			let started = ContinuousClock.now
			#expect(throws: SecretServiceError.locked) { try client.lookup(suite: suite, key: "token") }
			#expect(throws: SecretServiceError.locked) { try client.lookup(suite: suite, key: "never-stored") }
			#expect(throws: SecretServiceError.locked) { try client.store("new", suite: suite, key: "token") }
			#expect(throws: SecretServiceError.locked) { try client.clear(suite: suite, key: "token") }
			SecretServiceTestDaemon.report("locked: four calls answered .locked in \(ContinuousClock.now - started)")
		}

		#expect(try client.isLocked() == false)
		#expect(try client.lookupString(suite: suite, key: "token") == "kept")
	}

	@Test("SecretService: a stopped daemon times out in about the timeout, and the next call works", .enabled(if: SecretServiceTestDaemon.isAvailable))
	func secretServiceStoppedDaemon() throws {
		let suite = SecretServiceTestDaemon.uniqueSuite()
		try client.store("before", suite: suite, key: "token")
		defer { _ = try? client.clear(suite: suite, key: "token") }
		try SecretServiceTestDaemon.whileStopped {
			for (timeout, operation) in [(Duration.seconds(1), "lookup"), (.milliseconds(300), "store"), (.seconds(1), "clear")] {
				let client = SecretServiceClient(applicationName: "DefaultsTests", timeout: timeout)
				let started = ContinuousClock.now
				#expect(throws: SecretServiceError.timedOut(timeout)) {
					switch operation {
					case "lookup":
						_ = try client.lookup(suite: suite, key: "token")
					case "store":
						try client.store("during", suite: suite, key: "other")
					default:
						_ = try client.clear(suite: suite, key: "missing")
					}
				}
				let elapsed = ContinuousClock.now - started
				SecretServiceTestDaemon.report("stopped daemon: \(operation) with a timeout of \(timeout) answered .timedOut after \(elapsed)")
				#expect(elapsed >= timeout)
				#expect(elapsed < timeout + .milliseconds(500))
			}
		}

		let started = ContinuousClock.now
		#expect(try client.lookupString(suite: suite, key: "token") == "before")
		SecretServiceTestDaemon.report("daemon continued: the next lookup answered in \(ContinuousClock.now - started)")
		_ = try client.clear(suite: suite, key: "other")
	}

	@Test("SecretService: a daemon stopped in the middle of a call", .enabled(if: SecretServiceTestDaemon.isAvailable))
	func secretServiceStoppedMidCall() throws {
		let suite = SecretServiceTestDaemon.uniqueSuite()
		let daemon = try SecretServiceTestDaemon.pid()
		let client = SecretServiceClient(applicationName: "DefaultsTests", timeout: .seconds(1))
		defer {
			kill(daemon, SIGCONT)
			_ = try? client.clear(suite: suite, key: "blob")
		}

		// A 1 MB store keeps the daemon busy for a while; it is stopped while it works.
		let value = Data(repeating: 7, count: 1_048_576)
		let started = ContinuousClock.now
		let storing = BackgroundThread { Result { () throws(SecretServiceError) in try client.store(value, suite: suite, key: "blob") } }
		usleep(5000)
		kill(daemon, SIGSTOP)
		let finished = storing.wait(atMost: .seconds(3))
		let elapsed = ContinuousClock.now - started
		let result = try #require(finished, "the store did not return within 3 s")
		SecretServiceTestDaemon.report("stopped 5 ms into a 1 MB store: \(result) after \(elapsed)")
		if case .failure(let error) = result {
			#expect(error == .timedOut(.seconds(1)))
		}

		kill(daemon, SIGCONT)
		try client.store("after", suite: suite, key: "blob")
		#expect(try client.lookupString(suite: suite, key: "blob") == "after")
	}

	@Test("SecretService: a killed daemon is replaced by one the bus starts, locked; unlocked, it answers again", .enabled(if: SecretServiceTestDaemon.isAvailable))
	func secretServiceKilledDaemon() throws {
		let suite = SecretServiceTestDaemon.uniqueSuite()
		try client.store("kept on disk", suite: suite, key: "token")
		defer { _ = try? client.clear(suite: suite, key: "token") }
		#expect(kill(try SecretServiceTestDaemon.pid(), SIGKILL) == 0)
		var isUnlocked = false
		defer {
			if !isUnlocked {
				_ = try? SecretServiceTestDaemon.control("unlock")
			}
		}

		// The bus starts gnome-keyring again on the next call (D-Bus activation), without the password: the keyring stays locked.
		let client = SecretServiceClient(applicationName: "DefaultsTests", timeout: .seconds(2))
		let started = ContinuousClock.now
		#expect(throws: SecretServiceError.locked) { try client.lookup(suite: suite, key: "token") }
		SecretServiceTestDaemon.report("killed daemon: the next lookup, through a daemon the bus started, answered .locked after \(ContinuousClock.now - started)")
		try SecretServiceTestDaemon.control("unlock")
		isUnlocked = true
		#expect(try client.lookupString(suite: suite, key: "token") == "kept on disk")
	}

	@Test("SecretService: four threads write at once", .enabled(if: SecretServiceTestDaemon.isAvailable))
	func secretServiceConcurrentWriters() throws {
		let suite = SecretServiceTestDaemon.uniqueSuite()
		let client = SecretServiceClient(applicationName: "DefaultsTests", timeout: .seconds(5))
		let writes = 50
		let failures = Locked<[String]>([])
		defer {
			for thread in 0..<4 {
				for index in 0..<writes {
					_ = try? client.clear(suite: suite, key: "thread-\(thread)-\(index)")
				}
			}
			_ = try? client.clear(suite: suite, key: "shared")
		}

		let started = ContinuousClock.now
		DispatchQueue.concurrentPerform(iterations: 4) { thread in
			for index in 0..<writes {
				do {
					try client.store("\(thread)/\(index)", suite: suite, key: "thread-\(thread)-\(index)")
					try client.store("\(thread)/\(index)", suite: suite, key: "shared")
					if try client.lookupString(suite: suite, key: "thread-\(thread)-\(index)") != "\(thread)/\(index)" {
						failures.withLock { $0.append("thread \(thread) read another value for its key \(index)") }
					}
				} catch {
					failures.withLock { $0.append("thread \(thread), write \(index): \(error)") }
				}
			}
		}
		SecretServiceTestDaemon.report("4 threads × \(writes) × (2 stores + 1 lookup) in \(ContinuousClock.now - started)")
		#expect(failures.withLock { $0 } == [])
		for thread in 0..<4 {
			for index in 0..<writes {
				#expect(try client.lookupString(suite: suite, key: "thread-\(thread)-\(index)") == "\(thread)/\(index)")
			}
		}

		// The shared key holds one whole value one of the threads wrote.
		let shared = try #require(try client.lookupString(suite: suite, key: "shared"))
		let parts = shared.split(separator: "/").compactMap { Int($0) }
		#expect(parts.count == 2 && (0..<4).contains(parts[0]) && (0..<writes).contains(parts[1]), "\(shared)")
	}
}
#endif
