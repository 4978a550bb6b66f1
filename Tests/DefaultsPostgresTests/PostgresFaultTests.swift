#if Postgres
import DefaultsPostgres
import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// A namespace and a suite of a test's own, with the server stopped until ``startServer()``; at the end the server runs again, whatever happened, and the suite's files are gone.
private final class StoppedServer {
	let namespace = PostgresTestServer.uniqueNamespace()
	let suite: String
	private var isUp = false

	init(suitePrefix: String) throws {
		suite = "\(suitePrefix).\(UUID().uuidString)"
		try PostgresTestServer.control("stop-server")
	}

	func startServer() throws {
		try PostgresTestServer.control("start-server")
		isUp = true
	}

	deinit {
		if !isUp {
			try? PostgresTestServer.control("start-server")
		}
		TestEnvironment.removeFiles(ofSuite: suite)
		TestEnvironment.removeFiles(ofSuite: "\(suite).defaults-sync")
	}
}

extension PostgresTests {
	@Suite("PostgreSQL faults", .enabled(if: PostgresTestServer.isControllable))
	struct Faults {
		/// One device writes `key0` … one key every 20 ms while `fault` strikes at the given steps; the other must end up with every value.
		private func everyChangeArrives(despite fault: @escaping (Int, PostgresDevice, PostgresDevice) async throws -> Void, at steps: Set<Int>) async throws {
			let namespace = PostgresTestServer.uniqueNamespace()
			// The feed's loss, and a publish cut by the terminated connection (SQLSTATE 57P01, which names no
			// namespace), are reported each time the fault strikes: expected, so claimed instead of printed.
			let (_, reported) = try await DiagnosticReporter.claimingAsync(where: { $0.message.contains("namespace '\(namespace)'") || $0.message.contains("SQLSTATE 57P01") }) {
				try await everyChangeArrives(in: namespace, despite: fault, at: steps)
			}
			// A failed publish is reported once, and once more, with its count, when publishing works again.
			#expect(reported.allSatisfy { $0.kind == .syncFailed || $0.kind == .syncRecovered }, "\(reported)")
		}

		private func everyChangeArrives(in namespace: String, despite fault: @escaping (Int, PostgresDevice, PostgresDevice) async throws -> Void, at steps: Set<Int>) async throws {
			let count = 40
			let writer = try PostgresDevice("writer", namespace: namespace, keyCount: count)
			let reader = try PostgresDevice("reader", namespace: namespace, keyCount: count)
			await writer.settle()
			await reader.settle()

			for index in 0..<count {
				if steps.contains(index) {
					try await fault(index, writer, reader)
				}

				writer.suite[writer.keys[index]] = "value \(index)"
				try await Task.sleep(for: .milliseconds(20))
			}

			let expected = (0..<count).map { "value \($0)" }
			// No refresh here: the reader must catch up by itself, through its feed's reconnection.
			#expect(await eventually(timeout: .seconds(30)) { reader.values == expected }, "reader holds \(reader.values.filter { $0 == "default" }.count) defaults")
			#expect(await eventually(timeout: .seconds(5)) { (try? await reader.store.entries().count) == count })
		}

		@Test("connections ended from the server side (pg_terminate_backend) while the other side writes: every change arrives")
		func terminatedConnections() async throws {
			try await everyChangeArrives(despite: { step, writer, reader in
				// Alternately the reader's connections (its LISTEN among them) and the writer's, mid-publish.
				try await PostgresTestServer.terminateConnections(of: step.isMultiple(of: 2) ? reader.applicationName : writer.applicationName)
			}, at: [8, 15, 21, 30])
		}

		@Test("the server restarted mid-run: every change arrives")
		func serverRestart() async throws {
			try await everyChangeArrives(despite: { _, _, _ in
				try PostgresTestServer.control("restart")
			}, at: [12])
		}

		@Test("the server down when a process starts: a diagnostic, the local value kept, and synced once the server is back")
		func serverDownAtStart() async throws {
			let stopped = try StoppedServer(suitePrefix: "defaults-pg-down")
			let (namespace, suite) = (stopped.namespace, stopped.suite)
			defer { withExtendedLifetime(stopped) {} }

			let environment = PostgresTestServer.childEnvironment(overriding: ["DEFAULTS_PG_OPERATION_TIMEOUT_MS": "1000"])
			let writer = try ChildProcess("DefaultsPostgresTestHelper", ["write", namespace, suite, "volume", "7", "6"], environment: environment)
			defer { writer.kill() }
			#expect(writer.waitForLine(timeout: 20) { $0 == "written" } != nil)
			#expect(writer.waitForErrorOutput(containing: "syncFailed", timeout: 5), "\(writer.errorOutputText)")

			try stopped.startServer()
			let store = try PostgresTestServer.store(namespace: namespace)
			#expect(await eventually { (try? await store.entries()["volume"]?.value) == 7 })
			#expect(writer.waitUntilExit() == 0)
			#expect(writer.receivedLines == ["written", "local 7"])
		}

		@Test("a wrong password: a diagnostic naming the cause, retried, no crash, the local value kept")
		func authenticationFailure() throws {
			let namespace = PostgresTestServer.uniqueNamespace()
			let suite = "defaults-pg-auth.\(UUID().uuidString)"
			defer {
				TestEnvironment.removeFiles(ofSuite: suite)
				TestEnvironment.removeFiles(ofSuite: "\(suite).defaults-sync")
			}

			let environment = PostgresTestServer.childEnvironment(overriding: ["DEFAULTS_PG_PASSWORD": "not-the-password", "DEFAULTS_PG_OPERATION_TIMEOUT_MS": "500"])
			let result = try ChildProcess.run("DefaultsPostgresTestHelper", ["write", namespace, suite, "volume", "7", "2"], environment: environment)

			#expect(result.status == 0, "\(result.errorOutput)")
			#expect(result.lines == ["written", "local 7"])
			let failures = result.errorOutput.components(separatedBy: "\n").filter { $0.contains("syncFailed") && $0.contains("password authentication failed") }
			// Once per operation (publishing, reading, the change feed) while the cause stays the same, not once per attempt.
			#expect((1...3).contains(failures.count), "\(result.errorOutput)")
		}

		@Test("an outage is reported once per cause, and its end with the count of failures, not once per write")
		func outageIsReportedOnce() async throws {
			let stopped = try StoppedServer(suitePrefix: "defaults-pg-outage")
			let (namespace, suite) = (stopped.namespace, stopped.suite)
			defer { withExtendedLifetime(stopped) {} }

			let environment = PostgresTestServer.childEnvironment(overriding: ["DEFAULTS_PG_OPERATION_TIMEOUT_MS": "300"])
			let writer = try ChildProcess("DefaultsPostgresTestHelper", ["write-each", namespace, suite, "volume", "60", "50"], environment: environment)
			defer { writer.kill() }
			#expect(writer.waitForLine(timeout: 60) { $0.hasPrefix("wrote 30 ") } != nil)

			try stopped.startServer()
			let store = try PostgresTestServer.store(namespace: namespace)
			#expect(await eventually { (try? await store.entries()["volume"]?.value) == 60 }, "the last write reached the table")
			#expect(writer.waitUntilExit() == 0)

			let lines = writer.errorOutputText.components(separatedBy: "\n")
			let failures = lines.filter { $0.contains("syncFailed") }
			// Publishing, reading, and the change feed: each once, whatever the number of writes.
			#expect((1...3).contains(failures.count), "\(writer.errorOutputText)")
			#expect(lines.contains { $0.contains("syncRecovered") && $0.contains("works again after") }, "\(writer.errorOutputText)")
		}
	}
}
#endif
