#if Logging
import Defaults
import DefaultsLogging
import DefaultsTestSupport
import Foundation
import Logging
import Testing

/// Keeps what a logger was given.
private final class RecordingHandler: LogHandler, @unchecked Sendable {
	struct Entry: Sendable {
		let level: Logger.Level
		let message: String
		let metadata: Logger.Metadata
	}

	private let lock = NSLock()
	private var recorded: [Entry] = []
	var metadata: Logger.Metadata = [:]
	var logLevel: Logger.Level = .trace

	var entries: [Entry] {
		lock.withLock { recorded }
	}

	subscript(metadataKey key: String) -> Logger.Metadata.Value? {
		get { metadata[key] }
		set { metadata[key] = newValue }
	}

	func log(event: LogEvent) {
		lock.withLock {
			recorded.append(Entry(level: event.level, message: event.message.description, metadata: event.metadata ?? [:]))
		}
	}
}

// The diagnostic handler is the process's: one test at a time.
@Suite("Diagnostics sent to a swift-log Logger", .serialized)
struct DiagnosticLoggingTests {
	@Test("a diagnostic arrives at its level, with the kind, suite and key as metadata")
	func diagnosticIsLogged() throws {
		let handler = RecordingHandler()
		Defaults.sendDiagnostics(to: Logger(label: "test") { _ in handler })
		defer { Defaults.setDiagnosticHandler(nil) }

		// In the tests' temporary preferences folder, never ~/.config.
		let testSuite = TestSuite()
		let suiteName = testSuite.name
		Defaults[Defaults.Key<String>("volume", default: "", suite: testSuite.defaults)] = "not a number"
		let volume = Defaults.Key<Int>("volume", default: 3, suite: testSuite.defaults)
		#expect(Defaults[volume] == 3)

		let entry = try #require(handler.entries.first { $0.metadata["defaults.key"] == "volume" })
		#expect(entry.level == .warning)
		#expect(entry.metadata["defaults.kind"] == "undecodableValue")
		#expect(entry.metadata["defaults.suite"] == .string(suiteName))
		#expect(entry.message.contains("String"))
	}

	@Test("every kind has a level, and sync's trace is the quietest")
	func levels() {
		#expect(Defaults.Diagnostic.Kind.syncEvent.logLevel == .debug)
		#expect(Defaults.Diagnostic.Kind.persistenceFailed.logLevel == .error)
		#expect(Defaults.Diagnostic.Kind.forcedValue.logLevel == .notice)
		let diagnostic = Defaults.Diagnostic(kind: .syncFailed, key: nil, message: "down")
		#expect(diagnostic.logMetadata == ["defaults.kind": "syncFailed"])
	}
}
#endif
