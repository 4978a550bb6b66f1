import Foundation
import Synchronization

/**
What the library keeps for the whole process, in one place, as swift-log
keeps its `LoggingSystem`: the settings an app makes once (the write mode,
the diagnostic handler, sync's debug flag), the folders tests put in place
of the user's and the machine's, and the caches and once-only installations
of the process.

Each is locked on its own and never held with another; the part that uses
one reads it through its own API (`Defaults.writeMode`,
`Defaults.setDiagnosticHandler(_:)`, `PreferencesLocation.folder()`…). A
suite's own state is never here: it belongs to its `Suite`. Tests change
what they need through one entry point, ``overrideFolders(preferences:administrators:)``.
*/
package enum DefaultsSystem {
	// MARK: What the app sets

	/// How writes reach the disk (`Defaults.writeMode`), as one word (``Defaults/WriteMode/word``): every write reads it, and takes no lock for it.
	static let writeMode = Atomic(Defaults.WriteMode.coalesced(milliseconds: 50).word)

	/// Where diagnostics go instead of standard error (`Defaults.setDiagnosticHandler(_:)`).
	static let diagnosticHandler = Locked<(@Sendable (Defaults.Diagnostic) -> Void)?>(nil)

	/// Whether sync says what it does (`Defaults.iCloud.isDebug`).
	static let isSyncDebug = Locked(false)

	// MARK: Folders tests replace

	/// The preferences folder in place of `$XDG_CONFIG_HOME`'s (`PreferencesLocation.folder()`), or `nil`.
	static let preferencesFolderOverride = Locked<URL?>(nil)

	/// The system configuration folders in place of `$XDG_CONFIG_DIRS`'s (`AdministratorFiles.folders`), or `nil`.
	static let administratorFoldersOverride = Locked<[URL]?>(nil)

	/**
	Replaces, for this whole process, the folder of the user's preferences and
	the system folders an administrator's files are read from: the library's
	own tests stay out of `~/.config` and `/etc/xdg` with it. Call it before
	any suite is used.
	*/
	package static func overrideFolders(preferences: URL, administrators: [URL]) {
		preferencesFolderOverride.withLock { $0 = preferences }
		administratorFoldersOverride.withLock { $0 = administrators }
	}

	// MARK: Caches and once-only work of the process

	/// The codec of each type, chosen once: declaring many keys of one type resolves its codec once (`PlistCodec`).
	static let codecs = Locked<[ObjectIdentifier: AnyObject]>([:])

	/// The files whose abandoned temporary files this process looked for already (`POSIXFileSystem+SideFiles`): once is enough, new leftovers need a crash.
	static let cleanedFiles = Locked<Set<String>>([])

	/// Observations tied to their owners' lifetimes, kept alive while the owners live (`LifetimeTies`).
	static let lifetimeTies = Locked<[ObjectIdentifier: ObservationHandle]>([:])

	/// Whether the flush at normal exit is installed (`ExitFlush`).
	static let isExitFlushInstalled = Locked(false)

	/// Whether the flush on a termination signal is installed (`TerminationSignalFlush`).
	static let isTerminationSignalFlushInstalled = Locked(false)
}
