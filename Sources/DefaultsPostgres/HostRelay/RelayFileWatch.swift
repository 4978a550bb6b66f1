#if Postgres
import Defaults
import Foundation
import Synchronization

/// Runs `onChange` each time one file of a relay is replaced, by any process, and counts the changes,
/// so a waiting reader re-reads the file only when it changed.
final class RelayFileWatch: FileChangeListener {
	let url: URL
	private let onChange: @Sendable () -> Void
	private let changes = Atomic<UInt64>(0)

	/// Starts watching (the watcher holds it weakly: keep it).
	init(url: URL, onChange: @escaping @Sendable () -> Void = {}) {
		self.url = url
		self.onChange = onChange
		FileChangeWatcher.shared.watch(self)
	}

	/// How many changes were seen so far.
	var changeCount: UInt64 {
		changes.load(ordering: .acquiring)
	}

	func fileDidChange() {
		changes.add(1, ordering: .releasing)
		onChange()
	}
}
#endif
