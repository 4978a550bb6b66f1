import Foundation
import Testing

/**
Every test against the real server, one at a time: the fault tests stop and
restart the server, which would break any test running beside them.
*/
@Suite("PostgreSQL remote store", .serialized)
struct PostgresTests {
	@Test("the PostgreSQL tests run: built with the Postgres trait, against a server (else they are skipped, loudly)")
	func testsRun() {
		#if Postgres
		let missing = PostgresTestServer.isAvailable ? nil : "NO POSTGRESQL SERVER: every DefaultsPostgres test was SKIPPED. Run `scripts/test`, or `scripts/postgres run swift test --traits Postgres --filter DefaultsPostgresTests`."
		#else
		let missing: String? = "BUILT WITHOUT THE Postgres TRAIT: no DefaultsPostgres test was compiled. Run `scripts/test`, or build and test with `--traits Postgres`."
		#endif
		guard let missing else {
			return
		}

		FileHandle.standardError.write(Data("\n*** \(missing) ***\n\n".utf8))
		let isRequired = ProcessInfo.processInfo.environment["DEFAULTS_PG_REQUIRED"] == "1"
		Issue.record(Comment(rawValue: missing), severity: isRequired ? .error : .warning)
	}
}
