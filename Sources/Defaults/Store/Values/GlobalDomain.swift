import Foundation

/**
The global domain (`.GlobalPreferences.plist` in the preferences folder),
whose values every suite reads below its own.

Read once, when the first suite needs it, and again whenever a process
replaces the file (`defaults write -g`): each suite whose reads change hears
it like any other change.
*/
final class GlobalDomain: ExternalChangeListener, Sendable {
	static let shared = GlobalDomain()

	/// The file, or `nil` when the preferences folder cannot be determined.
	let fileURL: URL?
	private let state: Locked<(values: [String: PropertyListValue], isWatched: Bool)>

	private init() {
		fileURL = try? PreferencesLocation.folder().appendingPathComponent(".GlobalPreferences.plist", isDirectory: false)
		state = Locked(([:], false))
		state.withLock { $0.values = read() }
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
			ExternalChangeWatcher.shared.watch(self)
		}
	}

	func fileDidChange() {
		let values = read()
		let changed = state.withLock { state in
			defer { state.values = values }
			return state.values != values
		}

		guard changed else {
			return
		}

		for suite in Suite.ownedSuites {
			guard let owned = suite.values as? OwnedSuiteValues else {
				continue
			}

			for (name, change) in owned.replaceGlobal(with: values) {
				let observers = suite.observers.observers(of: name)
				let raw = RawChange(name: name, oldObject: change.oldObject, newObject: change.newObject, isPrior: false)
				for observer in observers {
					observer.deliver(raw)
				}
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
