#if Logging
import Defaults
import Logging

/// Sending the library's diagnostics to swift-log.
extension Defaults {
	/**
	Sends every diagnostic of the library to `logger`, instead of standard
	error: at the level its kind calls for (`Diagnostic.Kind.logLevel`),
	with the message as the log message and the kind, suite and key as
	metadata (`defaults.kind`, `defaults.suite`, `defaults.key`).

	```swift
	import Defaults
	import DefaultsLogging
	import Logging

	Defaults.sendDiagnostics(to: Logger(label: "com.example.service.settings"))
	```

	It installs a diagnostic handler (`Defaults.setDiagnosticHandler(_:)`),
	replacing any other; `Defaults.setDiagnosticHandler(nil)` goes back to
	standard error. The logger is called on the thread that met the problem,
	outside every lock of the library.
	*/
	public static func sendDiagnostics(to logger: Logger) {
		setDiagnosticHandler { diagnostic in
			logger.log(level: diagnostic.kind.logLevel, "\(diagnostic.message)", metadata: diagnostic.logMetadata)
		}
	}
}

/// A diagnostic as swift-log metadata.
extension Defaults.Diagnostic {
	/// The diagnostic's kind, suite and key, as swift-log metadata: `defaults.kind`, and `defaults.suite` and `defaults.key` when known.
	public var logMetadata: Logger.Metadata {
		var metadata: Logger.Metadata = ["defaults.kind": .string(kind.rawValue)]
		if let suite {
			metadata["defaults.suite"] = .string(suite)
		}

		if let key {
			metadata["defaults.key"] = .string(key)
		}

		return metadata
	}
}

/// The level each kind of diagnostic is logged at.
extension Defaults.Diagnostic.Kind {
	/**
	The level a diagnostic of this kind is logged at: `error` when something
	the app asked for did not happen (a value not stored, a migration not run),
	`warning` when a value was replaced by a fallback or a change may go unseen
	for a while, `notice` for what went as designed but deserves a trace (a
	refused write of a forced key, sync working again), `debug` for the sync
	trace.

	```swift
	Defaults.setDiagnosticHandler { diagnostic in
		if diagnostic.kind.logLevel >= .warning {
			print("settings need attention: \(diagnostic.message)")
		}
	}
	```
	*/
	public var logLevel: Logger.Level {
		switch self {
		case .invalidKeyName, .unencodableValue, .persistenceFailed, .fileSizeLimitExceeded, .sizeBudgetExceeded, .unreadableFile, .syncFailed, .migrationFailed, .secretRefused:
			.error
		case .undecodableValue, .restoredNewerValue, .watchInterrupted, .newerSettingsVersion, .ignoredAdministratorFile, .sizeBudgetWarning, .secretUnavailable:
			.warning
		case .otherStoredForm, .conflictingRegistration, .syncRecovered, .forcedValue:
			.notice
		case .syncEvent:
			.debug
		}
	}
}
#endif
