import Defaults
import Foundation

/**
Prints each change to one preferences file as it happens, whichever process
made it: the library's external-change watcher reports every replacement of
the file, and each new version is compared with the previous one key by key.
*/
final class DomainWatcher: FileChangeListener {
	/// One key's change between two versions of the file.
	struct Change {
		let key: String
		let old: PropertyListValue?
		let new: PropertyListValue?
	}

	let url: URL
	private let file: PreferencesFile
	private let key: String?
	private let report: @Sendable (Change) -> Void
	private let lastSeen: Locked<[String: PropertyListValue]>

	/// Starts watching `file` (only `key`, when given), calling `report` for every change from now on.
	init(_ file: PreferencesFile, key: String?, report: @escaping @Sendable (Change) -> Void) throws {
		self.url = file.url
		self.file = file
		self.key = key
		self.report = report
		lastSeen = Locked([:])
		FileChangeWatcher.shared.watch(self)
		// Read after the watch is in place, so no write between the two goes unreported.
		let contents = (try? file.read()) ?? nil
		lastSeen.withLock { $0 = contents ?? [:] }
	}

	func fileDidChange() {
		// A file that does not parse is skipped: a writer that rewrites in place
		// (Foundation's `synchronize()`) is caught half-way, and its next event follows.
		guard let contents = try? file.read() ?? [:] else {
			return
		}

		let changes = lastSeen.withLock { lastSeen in
			defer { lastSeen = contents }
			return PropertyListFileContents.changedKeys(from: lastSeen, to: contents)
				.filter { key == nil || $0 == key }
				.sorted()
				.map { Change(key: $0, old: lastSeen[$0], new: contents[$0]) }
		}

		for change in changes {
			report(change)
		}
	}
}
