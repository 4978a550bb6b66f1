import Foundation
#if canImport(Glibc)
import Glibc
#endif

/**
How ``FileChangeWatcher`` sees changes when inotify cannot be had: a process
that finds every inotify instance of its user taken (128 by default on
Linux, so a host's 129th process of one user) checks each listened file
and folder on a timer; one whose folder cannot be watched (every inotify
watch of its user taken, `fs.inotify.max_user_watches`) checks that folder's
files and the folder itself. It tells the listeners of those whose identity
(inode, size, modification time) changed, or, for files heard with
``FileChangeWatcher/Hearing/attributes``, whose or whose folder's mode or
owner changed. Later, not never: a change is seen within
``intervalMilliseconds`` instead of milliseconds.
*/
enum FileChangePolling {
	static let intervalMilliseconds = 250

	/// Starts checking `watcher`'s files on a thread of its own, for as long as it lives (the process's: the life of the process).
	static func start(for watcher: FileChangeWatcher) {
		let thread = Thread { [weak watcher] in
			var known: [String: Sighting] = [:]
			while true {
				Thread.sleep(forTimeInterval: Double(intervalMilliseconds) / 1_000)
				// The process's watcher lives as long as the process; another one (a test's) ends its checks with it.
				guard let snapshot = watcher?.state.withLock({ state in
					(state.polledListeners(), state.attributeFolders)
				}) else {
					return
				}

				let (listened, attributeFolders) = snapshot
				var changed: [any FileChangeListener] = []
				for (path, listeners) in listened where !listeners.isEmpty {
					let sighting = Sighting(of: URL(fileURLWithPath: path), attributeFolders: attributeFolders)
					// First sight counts as a change: the listener read its file before it listened, and another process
					// may have written it in between. Listeners re-read and find nothing new when nothing is.
					if known[path].map({ $0 != sighting }) ?? true {
						changed += listeners
					}

					known[path] = sighting
				}

				known = known.filter { listened[$0.key]?.isEmpty == false }
				var notified: Set<ObjectIdentifier> = []
				for listener in changed where notified.insert(ObjectIdentifier(listener)).inserted {
					listener.fileDidChange()
				}
			}
		}
		thread.name = "Defaults.FileChangePolling"
		// It may read suites' files under their locks, like the watcher's thread: a termination signal must park another thread.
		TerminationSignals.deferred {
			thread.start()
		}
	}

	/// What one check sees of a listened path: its identity and, when its folder is heard for attributes, its and its folder's mode and owner.
	private struct Sighting: Equatable {
		let identity: FileIdentity?
		let attributes: [Attributes?]

		struct Attributes: Equatable {
			let mode: UInt32
			let owner: UInt32
			let group: UInt32

			init?(of path: String) {
				var info = stat()
				guard stat(path, &info) == 0 else {
					return nil
				}

				mode = UInt32(info.st_mode)
				owner = UInt32(info.st_uid)
				group = UInt32(info.st_gid)
			}
		}

		init(of url: URL, attributeFolders: Set<String>) {
			identity = POSIXFileSystem().identity(of: url)
			let folder = url.deletingLastPathComponent().standardizedFileURL.path
			attributes = attributeFolders.contains(folder) ? [Attributes(of: url.path), Attributes(of: folder)] : []
		}
	}
}
