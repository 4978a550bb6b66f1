import Foundation
#if canImport(Glibc)
import Glibc
#endif

/**
Tells each listener (a suite's file, the global domain, the `defaults`
tool's `watch`) when its file was replaced, written, created or deleted;
listeners to an administrator's files also hear a change of the mode or owner
of the file or of its folder (`chmod`, `chown`), which decides whether the
file is trusted.

One inotify descriptor watches the folders of all files listened to (a
folder, because an atomic replace swaps the file's inode); one background
thread reads its events and notifies the listeners of the files involved,
which read the file again and find what changed. Events arrive within milliseconds of the
rename.

A watch dies with its folder. When a watched folder is removed or moved away,
its listeners are told at once (their files are gone), a diagnostic reports
the gap, and the nearest existing ancestor is watched until the folder is
back; then the folder is watched again, the gap's length is reported, and the
listeners re-read their files to catch up with what other processes wrote.

A folder that exists but cannot be watched (the user's limit of inotify
watches reached, `ENOSPC`; no memory for one; no permission to read it) has
its listeners' files checked on a timer instead, by ``FileChangePolling``, as
when inotify cannot be had at all; a diagnostic names the first such folder
and the reason, once.
*/
package final class FileChangeWatcher: @unchecked Sendable {
	package static let shared = FileChangeWatcher()

	struct State {
		var descriptor: Int32 = -1
		/// The folder each inotify watch is on: folders listened to, and ancestors of missing ones.
		var watchedFolders: [Int32: String] = [:]
		/// Every folder that holds listened files or is listened to as a whole.
		var listenedFolders: Set<String> = []
		/// Listened folders whose watch reports mode and owner changes too (`IN_ATTRIB`): an administrator's, not a suite's,
		/// so that suites' folders get no wake-up for every `touch` or link count change.
		var attributeFolders: Set<String> = []
		var listeners: [String: [WeakListener]] = [:]
		/// Listeners to every file of a folder, by the folder's path.
		var folderListeners: [String: [WeakListener]] = [:]
		/// Listened folders that do not exist at the moment.
		var missingFolders: [String: MissingFolder] = [:]
		/// Whether inotify could not be had, and files are checked by ``FileChangePolling`` instead.
		var isPolling = false
		/// Listened folders that exist but could not be watched (the user's watch limit reached, say), checked by
		/// ``FileChangePolling`` instead; once polled, a folder stays polled.
		var polledFolders: Set<String> = []
		/// The first folder that could not be watched and why, until it is reported and its polling starts.
		var unreportedFallback: (folder: String, failure: WatchFailure)?
		/// Adds an inotify watch; tests make it fail.
		let addWatch: AddWatch
	}

	/// Adds an inotify watch on a folder (`descriptor`, `path`, `events`): the watch, or why there is none.
	typealias AddWatch = @Sendable (_ descriptor: Int32, _ path: String, _ events: UInt32) -> Result<Int32, WatchFailure>

	/// Why `inotify_add_watch` failed: its `errno`.
	struct WatchFailure: Error, Equatable {
		let code: Int32

		/// The folder (or a folder on its path) does not exist, or is not a folder: it is awaited, not polled.
		var isMissingFolder: Bool {
			#if canImport(Glibc)
			code == ENOENT || code == ENOTDIR
			#else
			true
			#endif
		}

		/// What a diagnostic says of it.
		var reason: String {
			#if canImport(Glibc)
			let text = String(cString: strerror(code))
			return code == ENOSPC ? "\(text): the user's limit of inotify watches, fs.inotify.max_user_watches, is reached" : text
			#else
			return "error \(code)"
			#endif
		}
	}

	#if canImport(Glibc)
	/// The real `inotify_add_watch`.
	static let addInotifyWatch: AddWatch = { descriptor, path, events in
		let watch = inotify_add_watch(descriptor, path, events)
		return watch >= 0 ? .success(watch) : .failure(WatchFailure(code: errno))
	}
	#else
	static let addInotifyWatch: AddWatch = { _, _, _ in .failure(WatchFailure(code: 0)) }
	#endif

	struct WeakListener {
		weak var listener: (any FileChangeListener)?
	}

	struct MissingFolder {
		/// When it went missing, or `nil` when it never existed while watched (nothing was missed).
		var since: DispatchTime?
		/// The watch on the nearest existing ancestor, which announces the folder's return.
		var ancestorWatch: Int32?
	}

	let state: Locked<State>
	/// Whether to ask for inotify at all; a watcher that does not checks the files on a timer (for tests of that fallback).
	private let usesInotify: Bool

	/// A watcher; tests may ask for none of inotify (`usesInotify`), or replace how watches are added (`addWatch`) to make them fail.
	init(usesInotify: Bool = true, addWatch: @escaping AddWatch = FileChangeWatcher.addInotifyWatch) {
		self.usesInotify = usesInotify
		state = Locked(State(addWatch: addWatch))
	}

	/// Starts notifying `listener`, which is held weakly, of changes to its file; its folder is created (private to the user) when missing.
	package func watch(_ listener: any FileChangeListener) {
		watch([listener], wholeFolder: false, creatingFolders: true)
	}

	/// What a listener hears besides its file's contents.
	enum Hearing {
		/// Writes, replacements, creations and deletions of the file.
		case contents
		/// Those, and changes of the mode or owner of the file or of its folder: for files whose trust depends on them.
		case attributes
	}

	/**
	Starts notifying `listeners`, held weakly, of changes to their files,
	without creating any folder: a missing folder is awaited, and its
	listeners re-read their files when it appears. For files others own (an
	administrator's), whose folders are not the library's to make.
	*/
	func watchWithoutCreatingFolders(_ listeners: [any FileChangeListener], hearing: Hearing = .contents) {
		watch(listeners, wholeFolder: false, creatingFolders: false, hearing: hearing)
	}

	/// Starts notifying `listener`, whose `url` is a folder, of changes to any file in it.
	func watchFolder(_ listener: any FileChangeListener) {
		watch([listener], wholeFolder: true, creatingFolders: true)
	}

	private func watch(_ listeners: [any FileChangeListener], wholeFolder: Bool, creatingFolders: Bool, hearing: Hearing = .contents) {
		#if canImport(Glibc)
		let (descriptor, isNew) = state.withLock { state -> (Int32, Bool) in
			if state.descriptor >= 0 {
				return (state.descriptor, false)
			}

			state.descriptor = usesInotify ? inotify_init1(Int32(IN_CLOEXEC)) : -1
			return (state.descriptor, true)
		}

		guard descriptor >= 0 else {
			// No inotify (a user's 128 instances all taken by other processes, say): files are checked on a timer instead.
			let reason = usesInotify ? String(cString: strerror(errno)) : "not asked for"
			let isFirst = state.withLock { state in
				for listener in listeners {
					state.register(listener, wholeFolder: wholeFolder, hearing: hearing)
				}

				defer { state.isPolling = true }
				return !state.isPolling
			}

			if isFirst {
				DiagnosticReporter.report(.persistenceFailed, key: nil, "inotify is unavailable (\(reason)): changes by other processes are seen by checking the files every \(FileChangePolling.intervalMilliseconds) ms instead")
				FileChangePolling.start(for: self)
			}
			return
		}

		var isMissing = false
		for listener in listeners {
			let folder = wholeFolder ? listener.url : listener.url.deletingLastPathComponent()
			if creatingFolders {
				try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
			}

			isMissing = state.withLock { state in
				let folderPath = state.register(listener, wholeFolder: wholeFolder, hearing: hearing)
				guard state.missingFolders[folderPath] == nil, !state.polledFolders.contains(folderPath) else {
					return false
				}

				switch state.addWatch(descriptor, folderPath, state.events(ofFolder: folderPath)) {
				case .success(let watch):
					state.watchedFolders[watch] = folderPath
					return false
				case .failure(let failure) where !failure.isMissingFolder:
					// It exists but cannot be watched (the user's watch limit, say): waiting for it to appear would wait forever.
					state.poll(folderPath, because: failure)
					return false
				case .failure:
					// It does not exist (or could not be created): wait for someone to create it.
					state.missingFolders[folderPath] = MissingFolder(since: nil)
					return true
				}
			} || isMissing
		}

		// Once for all of them: each pass looks at every missing folder.
		if isMissing {
			watchFolders()
		}

		startPollingIfFallenBack()

		if isNew {
			let thread = Thread { [self] in
				readEvents(from: descriptor)
			}
			thread.name = "Defaults.FileChangeWatcher"
			// It holds suites' locks while it reads their files: a termination signal must park another thread.
			TerminationSignals.deferred {
				thread.start()
			}
		}
		#endif
	}

	#if canImport(Glibc)
	/// What a watched folder reports: its files' writes, renames and deletions, and its own disappearance.
	static let folderEvents = UInt32(
		IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_MASK_ADD
	)

	/// What a folder of files heard with ``Hearing/attributes`` reports too: a mode or owner change of a file in it, or of itself.
	static let attributeEvents = UInt32(IN_ATTRIB)

	/// What an ancestor of a missing folder reports: a folder appearing in it, or its own disappearance.
	static let ancestorEvents = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_MASK_ADD)

	private func readEvents(from descriptor: Int32) {
		var buffer = [UInt8](repeating: 0, count: 64 * 1024)
		while true {
			let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
			if count <= 0 {
				if count < 0, errno == EINTR {
					continue
				}

				return
			}

			let events = buffer.withUnsafeBytes { InotifyEvent.parse($0.prefix(count)) }
			let batch = state.withLock { state in
				state.interpret(events)
			}
			deliver(batch)
		}
	}

	/// Tells listeners what a batch of events means for them; runs without any lock held.
	private func deliver(_ batch: EventBatch) {
		for folder in batch.lostFolders.sorted() {
			DiagnosticReporter.report(
				.watchInterrupted,
				key: nil,
				"the watched folder \(folder) was removed or moved away: its files read as deleted, and changes other processes make there are not seen until it exists again"
			)
		}

		var toNotify = listeners(of: batch)
		if batch.needsNewWatches {
			let appeared = watchFolders()
			let recovered = appeared.compactMapValues { $0 }
			for (folder, since) in recovered.sorted(by: { $0.key < $1.key }) {
				let milliseconds = (DispatchTime.now().uptimeNanoseconds - since.uptimeNanoseconds) / 1_000_000
				DiagnosticReporter.report(
					.watchInterrupted,
					key: nil,
					"the watched folder \(folder) exists again after \(milliseconds) ms without a watch: watching it again and re-reading its files, so changes made meanwhile are delivered now"
				)
			}

			// A folder that never existed while watched may already hold files, written before its watch was added.
			toNotify += state.withLock { $0.listeners(inFolders: Set(appeared.keys)) }
			startPollingIfFallenBack()
		}

		var notified: Set<ObjectIdentifier> = []
		for listener in toNotify where notified.insert(ObjectIdentifier(listener)).inserted {
			listener.fileDidChange()
		}
	}

	private func listeners(of batch: EventBatch) -> [any FileChangeListener] {
		state.withLock { state in
			if batch.overflowed {
				return state.listeners(inFolders: state.listenedFolders)
			}

			return batch.changedFiles.flatMap { state.listeners[$0, default: []].compactMap(\.listener) }
				+ batch.changedFolders.flatMap { state.folderListeners[$0, default: []].compactMap(\.listener) }
				+ state.listeners(inFolders: batch.lostFolders.union(batch.foldersWithNewAttributes))
		}
	}

	/**
	Reports the first folder that could not be watched, and starts checking
	the polled folders on a timer: once per watcher, outside the lock.
	*/
	private func startPollingIfFallenBack() {
		guard let (folder, failure) = state.withLock({ state in
			defer { state.unreportedFallback = nil }
			return state.unreportedFallback
		}) else {
			return
		}

		DiagnosticReporter.report(
			.persistenceFailed,
			key: nil,
			"inotify cannot watch the preferences folder \(folder) (\(failure.reason)): changes by other processes to its files, and to those of any other folder that cannot be watched, are seen by checking them every \(FileChangePolling.intervalMilliseconds) ms instead"
		)
		FileChangePolling.start(for: self)
	}

	/// Watches every missing folder that exists again, or the nearest ancestor that announces its return; returns the ones that appeared, with when they went missing (`nil`: never seen before).
	@discardableResult
	private func watchFolders() -> [String: DispatchTime?] {
		state.withLock { state in
			state.watchMissingFolders()
		}
	}
	#endif
}
