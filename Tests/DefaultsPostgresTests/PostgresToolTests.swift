#if Postgres
import Defaults
import DefaultsPostgres
import DefaultsTestSupport
import Foundation
import Testing

extension PostgresTests {
	/// `defaults fleet --postgres` against the live server, with processes of the fleet syncing through it.
	@Suite("defaults fleet against PostgreSQL", .enabled(if: PostgresTestServer.isAvailable))
	struct Tool {
		let namespace = PostgresTestServer.uniqueNamespace("tool")
		let suite = "com.example.fleet-tool.\(UUID().uuidString)"

		/// The server as libpq's variables name it: how an operator's shell gives it to the tool.
		private var toolEnvironment: [String: String] {
			PostgresTestServer.toolEnvironment()
		}

		private func tool(_ arguments: [String], environment: [String: String]? = nil) throws -> ChildProcess.Result {
			try ChildProcess.run("defaults", arguments, environment: environment ?? toolEnvironment)
		}

		@discardableResult
		private func succeed(_ verb: String, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
			let result = try tool(["fleet", verb, "--postgres", "--namespace", namespace] + arguments)
			#expect(result.status == 0 && result.errorOutput.isEmpty, "\(result.errorOutput)", sourceLocation: sourceLocation)
			return result.output
		}

		@Test("write, read (text and JSON) and delete through the PG variables; the table holds what a process would publish")
		func writeReadDelete() async throws {
			try succeed("write", "--device", "ops", "volume", "-int", "7")
			try succeed("write", "--device", "ops", "greeting", "-string", "hello")
			let lines = try succeed("read").split(separator: "\n")
			#expect(lines.count == 2)
			#expect(lines[0].hasPrefix("greeting = hello  [") && lines[0].hasSuffix(" by ops]"), "\(lines)")
			#expect(lines[1].hasPrefix("volume = 7  ["), "\(lines)")

			let json = try #require(try JSONSerialization.jsonObject(with: Data(try succeed("read", "--json", "volume").utf8)) as? [String: Any])
			#expect(json["value"] as? Int == 7)
			#expect(json["device"] as? String == "ops")

			let store = try PostgresTestServer.store(namespace: namespace)
			#expect(try await store.entries()["volume"]?.value == Defaults.AnySerializable(7))

			try succeed("delete", "volume")
			#expect(try succeed("read", "volume").hasPrefix("volume (deleted)  ["))
			let stored = try #require(try await store.entries()["volume"])
			#expect(stored.value == nil)
		}

		@Test("a postgres:// URL gives the connection, the password from PGPASSWORD")
		func connectionURL() throws {
			let server = ProcessInfo.processInfo.environment
			let url = "postgres://\(server["DEFAULTS_PG_USER"]!)@\(server["DEFAULTS_PG_HOST"]!):\(server["DEFAULTS_PG_PORT"]!)/\(server["DEFAULTS_PG_DATABASE"]!)?sslmode=disable"
			let environment = PostgresTestServer.childEnvironment(overriding: ["PGPASSWORD": server["DEFAULTS_PG_PASSWORD"]!])
			let write = try tool(["fleet", "write", "--postgres-url", url, "--namespace", namespace, "mode", "on"], environment: environment)
			#expect(write.status == 0, "\(write.errorOutput)")
			#expect(try succeed("read", "mode").hasPrefix("mode = on  ["))

			let wrongPort = try tool(["fleet", "read", "--postgres", "--namespace", namespace], environment: toolEnvironment.merging(["PGPORT": "none"]) { $1 })
			#expect(wrongPort.status == 64 && wrongPort.errorOutput == "defaults: cannot connect to PostgreSQL: PGPORT gives the port 'none': expected a number from 1 to 65535\n")
		}

		@Test("reading a table that does not exist fails in one line and creates nothing")
		func missingTable() throws {
			let result = try tool(["fleet", "read", "--postgres", "--namespace", namespace, "--table", "no_such_fleet_table"])
			#expect(result.status == 1 && result.output.isEmpty, "\(result.errorOutput)")
			#expect(result.errorOutput.hasPrefix("defaults: namespace '\(namespace)' of PostgreSQL failed: ") && result.errorOutput.contains("no_such_fleet_table"), "\(result.errorOutput)")
			#expect(result.errorOutput.filter { $0 == "\n" }.count == 1, "\(result.errorOutput)")
		}

		@Test("a running process applies a tool write and a tool deletion")
		func processObservesToolWrite() throws {
			let observer = try ChildProcess("DefaultsPostgresTestHelper", ["observe", namespace, suite, "volume", "60"], environment: PostgresTestServer.childEnvironment())
			defer { if !observer.hasExited { observer.kill() } }
			try #require(observer.waitForLine(timeout: 30) { $0 == "ready" } != nil, "\(observer.errorOutputText)")

			try succeed("write", "volume", "-int", "9")
			#expect(observer.waitForLine(timeout: 30) { $0.hasPrefix("change 0 9 ") } != nil, "\(observer.receivedLines) \(observer.errorOutputText)")
			try succeed("delete", "volume")
			#expect(observer.waitForLine(timeout: 30) { $0.hasPrefix("change 9 0 ") } != nil, "\(observer.receivedLines) \(observer.errorOutputText)")
		}

		@Test("fleet watch prints a process's write as it arrives")
		func watchSeesProcessWrite() throws {
			// `watch` reads the table and never creates it: on a fresh server, a write does.
			try succeed("write", "seed", "1")
			let watcher = try ChildProcess("defaults", ["fleet", "watch", "--postgres", "--namespace", namespace], environment: toolEnvironment)
			defer { if !watcher.hasExited { watcher.kill() } }
			try #require(watcher.waitForErrorOutput(containing: "Watching", timeout: 30), "\(watcher.errorOutputText)")

			let writer = try ChildProcess.run("DefaultsPostgresTestHelper", ["write", namespace, suite, "volume", "5", "0"], environment: PostgresTestServer.childEnvironment())
			#expect(writer.status == 0, "\(writer.errorOutput)")
			let line = watcher.waitForLine(timeout: 40) { $0.contains(" volume: (absent) -> 5  [") }
			#expect(line?.contains(" by \(DeviceIdentity.current)#") == true, "\(watcher.receivedLines) \(watcher.errorOutputText)")
			#expect(watcher.stop(with: SIGINT) == 0)
		}
	}
}
#endif
