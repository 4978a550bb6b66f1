#if Postgres
import Defaults
import DefaultsPostgres
import DefaultsTestSupport
import Foundation
import Testing

extension PostgresTests {
	/// What `defaults fleet --postgres` answers when the server refuses it.
	@Suite("defaults fleet against PostgreSQL: refusals", .enabled(if: PostgresTestServer.isAvailable))
	struct ToolAnswers {
		let namespace = PostgresTestServer.uniqueNamespace("tool-answers")

		/// The server as libpq's variables name it, with `overrides`.
		private func environment(_ overrides: [String: String] = [:]) -> [String: String] {
			PostgresTestServer.toolEnvironment(overriding: overrides)
		}

		/// Runs the tool; returns its result and how long it took.
		private func tool(_ arguments: [String], _ overrides: [String: String] = [:]) throws -> (result: ChildProcess.Result, seconds: Double) {
			let start = ContinuousClock.now
			let result = try ChildProcess.run("defaults", arguments, environment: environment(overrides))
			let elapsed = ContinuousClock.now - start
			return (result, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
		}

		@Test("a refused connection, a wrong password, a missing database or table: exit 1 at once, one line, the server's own reason", arguments: [
			(["PGPASSWORD": "not-the-password"], ["password authentication failed", "SQLSTATE 28P01"]),
			(["PGDATABASE": "no_such_database_39"], ["database \"no_such_database_39\" does not exist", "SQLSTATE 3D000"]),
			// Port 1 is privileged: nothing of these tests listens there.
			(["PGPORT": "1"], ["cannot connect to 127.0.0.1:1: Connection refused"]),
			(["PGTABLE_ARGUMENT": "no_such_fleet_table_39"], ["relation", "no_such_fleet_table_39", "does not exist"]),
		] as [([String: String], [String])])
		func refusalsAnswerAtOnce(_ overrides: [String: String], _ reasons: [String]) throws {
			var arguments = ["fleet", "read", "--postgres", "--namespace", namespace]
			if let table = overrides["PGTABLE_ARGUMENT"] {
				arguments += ["--table", table]
			}

			let (result, seconds) = try tool(arguments, overrides.filter { $0.key != "PGTABLE_ARGUMENT" })
			#expect(result.status == 1 && result.output.isEmpty, "\(result.status) \(result.errorOutput)")
			#expect(result.errorOutput.hasPrefix("defaults: namespace '\(namespace)' of PostgreSQL failed: "), "\(result.errorOutput)")
			#expect(result.errorOutput.filter { $0 == "\n" }.count == 1, "one line: \(result.errorOutput)")
			for reason in reasons {
				#expect(result.errorOutput.contains(reason), "\(result.errorOutput)")
			}

			#expect(!result.errorOutput.contains("did not answer") && !result.errorOutput.contains("PSQLError"), "\(result.errorOutput)")
			// The server refuses within milliseconds; the store's wait for a connection is 10 s. A debug build starts in well under 3 s.
			#expect(seconds < 3, "answered after \(seconds) s: \(result.errorOutput)")
		}

		@Test("a write refused the same way publishes nothing and says so at once")
		func refusedWrite() throws {
			let (result, seconds) = try tool(["fleet", "write", "--postgres", "--namespace", namespace, "mode", "on"], ["PGPASSWORD": "not-the-password"])
			#expect(result.status == 1 && result.errorOutput.contains("password authentication failed") && result.errorOutput.filter { $0 == "\n" }.count == 1, "\(result.errorOutput)")
			#expect(seconds < 3, "answered after \(seconds) s")
		}
	}
}
#endif
