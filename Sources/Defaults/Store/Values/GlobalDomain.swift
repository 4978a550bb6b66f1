import Foundation

/**
The global domain (`.GlobalPreferences.plist` in the preferences folder),
whose values every suite reads below its own.

Read once, when the first suite needs it, and again whenever a process
replaces the file (`defaults write -g`): each suite that reads it (each adds
itself when it starts) hears what changed for it like any other change.
*/
final class GlobalDomain: FileChangeListener, Sendable {
	static let shared = GlobalDomain()

	/// The file, or `nil` when the preferences folder cannot be determined.
	let fileURL: URL?
	private let state: Locked<State>

	private struct State {
		var values: [String: PropertyListValue] = [:]
		var isWatched = false
		/**
		The suites that read the global domain below their own values. Held
		strongly, as the registry holds them: a weak reference would give each
		suite a side table, and every read of a key retains its suite.
		*/
		var readers: [Suite] = []
	}

	private init() {
		fileURL = try? PreferencesLocation.folder().appendingPathComponent(".GlobalPreferences.plist", isDirectory: false)
		state = Locked(State())
		state.withLock { $0.values = read() }
	}

	/// Makes `suite`, one the registry keeps for the process's life, hear each change to the global domain (``Suite/applyGlobalValues(_:)``).
	///
	/// The suite takes the values as they are now, under the lock that orders every change of them: one read
	/// before it was added, and changed since, is never left stale. Returns the notifications to deliver.
	func addReader(_ suite: Suite) -> [ChangeNotification] {
		state.withLock { state in
			state.readers.append(suite)
			return suite.applyGlobalValues(state.values)
		}
	}

	/// The values as last read.
	var values: [String: PropertyListValue] {
		state.withLock { $0.values }
	}

	var url: URL {
		fileURL ?? URL(fileURLWithPath: "/dev/null")
	}

	/// Starts watching the file (once).
	func watch() {
		let isFirst = state.withLock { state in
			defer { state.isWatched = true }
			return !state.isWatched
		}

		if isFirst, fileURL != nil {
			FileChangeWatcher.shared.watch(self)
		}
	}

	func fileDidChange() {
		let values = read()
		let readers = state.withLock { state -> [Suite] in
			guard state.values != values else {
				return []
			}

			state.values = values
			return state.readers
		}

		// Delivered like every other change (priors first), each suite's as soon as it took the new values.
		for suite in readers {
			for notification in suite.applyGlobalValues(values) {
				notification.deliver()
			}
		}
	}

	/// The file's values; none when it is missing, unreadable or not a regular file.
	private func read() -> [String: PropertyListValue] {
		guard let fileURL, let data = try? POSIXFileSystem().read(fileURL) else {
			return [:]
		}

		if case .contents(let contents) = SuiteFileContents.decode(data) {
			return contents
		}

		return [:]
	}
}
