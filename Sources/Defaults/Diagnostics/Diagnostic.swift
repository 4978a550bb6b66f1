import Foundation

extension Defaults {
	/**
	A problem the library detected and recovered from.

	The library never crashes on bad stored data or on a value that cannot be
	stored: it falls back (to the key's default, or to leaving the stored value
	as it is) and reports what happened as a diagnostic. Diagnostics are written
	to standard error unless you install your own handler with
	``Defaults/setDiagnosticHandler(_:)``.

	```swift
	Defaults.setDiagnosticHandler { diagnostic in
		print("preferences: \(diagnostic)")   // or your logger
	}
	```
	*/
	public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
		/// What went wrong.
		public enum Kind: String, Sendable, Hashable {
			/// A key name breaks the naming rules: ASCII only, no leading `@`, no `.`.
			case invalidKeyName
			/// A stored value does not decode as the key's type; the default was used instead.
			case undecodableValue
			/// A stored value was in another form its type supports (stored before the type's conformances changed, or by another library): it was read, and the next write stores the key's own form.
			case otherStoredForm
			/// A value could not be turned into a property-list object; nothing was written.
			case unencodableValue
			/// Two keys registered different defaults under one name. No longer reported: each suite keeps its own registered defaults.
			case conflictingRegistration
			/// A suite's changes could not be written to disk; they stay in memory and are retried.
			case persistenceFailed
			/// A write would have made the suite's file larger than the 64 MiB the library reads back (with what other processes wrote, at a flush, or past a size budget set larger than that): it was refused, and the value and the file stay as they were.
			case fileSizeLimitExceeded
			/// A write would have passed the suite's size budget (``Defaults/SizeBudget``), for the value or the suite: it was refused before it changed anything, the value stays as it was and observers hear nothing. The message names the size and the budget.
			case sizeBudgetExceeded
			/// A write made the suite pass the warning size of its budget (``Defaults/SizeBudget/warningFraction``); reported once, until the suite falls back under 90% of that size or a budget is set.
			case sizeBudgetWarning
			/// A suite file did not parse: it was moved aside and rewritten from the values in memory, or (in a process that has not written yet) the suite reads as empty until it parses.
			case unreadableFile
			/// Raw `UserDefaults` in this process saved a value it never synchronized over one the library wrote since (Foundation's `synchronize()` is unlocked); the two writes are unordered, and the library wrote its value back.
			case restoredNewerValue
			/// A watched folder (of preferences, an administrator's files, a shared remote or a relay) was removed or moved away: changes other processes make there go unseen until it exists again, when its files are re-read.
			case watchInterrupted
			/// A synced key could not be sent to the remote (it would exceed the remote's limits, or the remote failed); it stays local and is retried.
			case syncFailed
			/// Publishing to or reading the sync remote works again after failing; the message counts the failures, which were not reported one by one.
			case syncRecovered
			/// What the synchroniser did, reported only while `Defaults.iCloud.isDebug` is on.
			case syncEvent
			/// A migration threw, or its changes could not be written: the suite was left as it was, and the migrations run again next time.
			case migrationFailed
			/// A suite was migrated by a newer version of the app than this one: no migration ran, and its recorded version stays.
			case newerSettingsVersion
			/// A write of a key an administrator forces was refused: the value stays the forced one, and observers hear nothing.
			case forcedValue
			/// A file an administrator manages (system-wide defaults, forced values) was left out: it does not parse, is not a regular file or too large, or would force values while a user other than root can change it.
			case ignoredAdministratorFile
			/// A secret key's value could not be read (it reads as the key's default) or written (nothing was kept): the store is unavailable, locked, did not answer, is read-only, or failed. The message names the key and the reason, never the value.
			case secretUnavailable
			/// A secret key was kept out of a path that would have copied its value elsewhere (sync); nothing was copied.
			case secretRefused
		}

		/// What went wrong.
		public let kind: Kind

		/// The key's name, when the problem concerns one key.
		public let key: String?

		/// The suite's name (its domain), when the problem concerns one suite and the library knows which.
		public let suite: String?

		/// A one-line, human-readable explanation.
		public let message: String

		/// Creates a diagnostic.
		public init(kind: Kind, key: String?, message: String, suite: String? = nil) {
			self.kind = kind
			self.key = key
			self.message = message
			self.suite = suite
		}

		public var description: String {
			if let key {
				return "Defaults: \(kind.rawValue) for key '\(key)': \(message)"
			}

			return "Defaults: \(kind.rawValue): \(message)"
		}
	}
}
