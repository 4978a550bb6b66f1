import Foundation

/**
The global domain (`.GlobalPreferences.plist` in the preferences folder),
whose values every suite reads below its own.

Read once, when the first suite needs it, and again whenever a process
replaces the file (`defaults write -g`): each suite that reads it (each adds
itself when it starts) hears what changed for it like any other change. A
file that cannot be read (it does not parse, or holds a kind no setting
holds) reads as empty, reported once, and again only when its problem changes.
*/
final class GlobalDomain: FileChangeListener, Sendable {
	static let shared = GlobalDomain()

	/// The file, or `nil` when the preferences folder cannot be determined.
	let fileURL: URL?
	private let state: Locked<State>

	private struct State {
		var values: [String: PropertyListValue] = [:]
		/// What is wrong with the file as last read, and what was last reported.
		var problem: String?
		var reportedProblem: String?
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
		let (values, problem) = read()
		state.withLock { state in
			state.values = values
			state.problem = problem
		}
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
			reportProblem()
		}
	}

	func fileDidChange() {
		let (values, problem) = read()
		let readers = state.withLock { state -> [Suite] in
			state.problem = problem
			guard state.values != values else {
				return []
			}

			state.values = values
			return state.readers
		}

		reportProblem()
		// Delivered like every other change (priors first), each suite's as soon as it took the new values.
		for suite in readers {
			for notification in suite.applyGlobalValues(values) {
				notification.deliver()
			}
		}
	}

	/// The file's values, and what is wrong with it; no values when it is missing, unreadable or not a regular file.
	private func read() -> (values: [String: PropertyListValue], problem: String?) {
		guard let fileURL else {
			return ([:], nil)
		}

		let reading: PropertyListFileContents.Reading
		do {
			reading = try POSIXFileSystem().reading(fileURL).reading
		} catch {
			return ([:], "cannot be read: \(error)")
		}

		if case .contents(let contents) = reading {
			return (contents, nil)
		}

		return ([:], reading.problem)
	}

	/// Reports the file's problem when it is new; called without any lock held.
	private func reportProblem() {
		let fresh = state.withLock { state -> String? in
			defer { state.reportedProblem = state.problem }
			return state.problem == state.reportedProblem ? nil : state.problem
		}

		if let fresh, let fileURL {
			DiagnosticReporter.report(
				.unreadableFile,
				key: nil,
				"the global domain's file \(fileURL.path) \(fresh); every suite reads as if it held nothing until it can be read (the library never rewrites it)"
			)
		}
	}
}
