#if Postgres
import Defaults
import Logging

/**
Keeps the last reason PostgresNIO's connection pool gave for failing to connect.

The pool retries failed connections by itself and only logs why they failed;
a statement waiting for a connection just waits. The store sets a deadline on
that wait, and this recorder lets it say why it ran out ("password
authentication failed", "connection refused") instead of only "timed out".
*/
final class ConnectionErrorRecorder: Sendable {
	private let last = Locked<String?>(nil)

	var lastError: String? {
		last.withLock { $0 }
	}

	func clear() {
		last.withLock { $0 = nil }
	}

	/// A logger for the `PostgresClient`: it records connection failures and prints nothing.
	func logger() -> Logger {
		Logger(label: "DefaultsPostgres") { [self] _ in Handler(recorder: self) }
	}

	fileprivate func record(_ message: String) {
		last.withLock { $0 = message }
	}

	private struct Handler: LogHandler {
		let recorder: ConnectionErrorRecorder
		var metadata: Logger.Metadata = [:]
		/// `debug`, to hear "Connection established", which clears the recorded failure.
		var logLevel: Logger.Level = .debug

		subscript(metadataKey key: String) -> Logger.Metadata.Value? {
			get { metadata[key] }
			set { metadata[key] = newValue }
		}

		func log(event: LogEvent) {
			switch event.message.description {
			case "Connection established":
				recorder.clear()
				return
			case "Connection creation failed":
				break
			default:
				return
			}

			let details = event.metadata?.first { $0.key.contains("error") }?.value
			recorder.record(details.map(Self.reason) ?? "unknown")
		}

		/// What went wrong, in the server's own words when it sent any (whole: "sorry, too many clients already").
		private static func reason(in details: Logger.MetadataValue) -> String {
			if case .stringConvertible(let value) = details {
				return Defaults.PostgresRemoteStoreError.from(value as? any Error ?? PlainError(description: "\(value)")).reason
			}

			return serverMessage(in: "\(details)")
		}

		/// The message field of a logged server error (`message: …` up to the next field or the end), else what a connection
		/// that could not be made means ("cannot connect to 127.0.0.1:5433: Connection refused"), else the error as logged.
		private static func serverMessage(in logged: String) -> String {
			guard let start = logged.range(of: "message: ") else {
				return Defaults.PostgresRemoteStoreError.connectionFailure(in: logged) ?? logged
			}

			let rest = logged[start.upperBound...]
			let end = rest.firstMatch(of: /, [a-zA-Z]+: |\]/)?.range.lowerBound ?? rest.endIndex
			return String(rest[..<end]).trimmingCharacters(in: .whitespaces)
		}
	}

	private struct PlainError: Error, CustomStringConvertible {
		let description: String
	}
}
#endif
