#if Postgres
import Defaults
import Foundation
import Logging
import Testing
@testable import DefaultsPostgres

/// What the store says when connecting fails: the server's words whole, and the connection pool's errors translated.
@Suite("PostgreSQL store: error wording")
struct PostgresErrorWordingTests {
	@Test("a logged server error keeps its whole message, commas included")
	func serverMessageIsQuotedWhole() {
		let recorder = ConnectionErrorRecorder()
		let logger = recorder.logger()
		logger.debug("Connection creation failed", metadata: [
			"error": "PSQLError(code: server, serverInfo: [sqlState: 53300, localizedSeverity: FATAL, message: sorry, too many clients already, file: proc.c, line: 364])",
		])
		#expect(recorder.lastError == "sorry, too many clients already")

		logger.debug("Connection established")
		#expect(recorder.lastError == nil)
	}

	@Test("the connection pool's errors say what happened", arguments: [
		("ConnectionPoolError(base: _ConnectionPoolModule.ConnectionPoolError.Base.connectionCreationCircuitBreakerTripped)", "no connection could be made"),
		("ConnectionPoolError(base: _ConnectionPoolModule.ConnectionPoolError.Base.poolShutdown)", "shut down"),
		("ConnectionPoolError(base: _ConnectionPoolModule.ConnectionPoolError.Base.requestCancelled)", "cancelled"),
	])
	func poolErrorsAreTranslated(_ logged: String, _ meaning: String) {
		struct Logged: Error, CustomStringConvertible {
			let description: String
		}

		let error = Defaults.PostgresRemoteStoreError.from(Logged(description: logged))
		#expect(!error.description.contains("_ConnectionPoolModule"), "\(error)")
		#expect(error.description.contains(meaning), "\(error)")
	}
}
#endif
