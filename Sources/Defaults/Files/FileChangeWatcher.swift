import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Something that wants to know when a preferences file was written, by this or another process.
package protocol FileChangeListener: AnyObject, Sendable {
	/// The file listened to.
	var url: URL { get }

	/// Called on the watcher's thread after the file was replaced, written, created or deleted (or, when
	/// listened to with ``FileChangeWatcher/Hearing/attributes``, its or its folder's mode or owner changed).
	func fileDidChange()
}

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
				"the preferences folder \(folder) was removed or moved away: its files read as deleted, and changes other processes make there are not seen until it exists again"
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
					"the preferences folder \(folder) exists again after \(milliseconds) ms without a watch: watching it again and re-reading its files, so changes made meanwhile are delivered now"
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

#if canImport(Glibc)
/// What one read of the inotify descriptor means.
struct EventBatch {
	var changedFiles: Set<String> = []
	var changedFolders: Set<String> = []
	/// Listened folders whose watch died because they were removed or moved away.
	var lostFolders: Set<String> = []
	/// Listened folders whose own mode or owner changed: every file in them may be trusted differently now.
	var foldersWithNewAttributes: Set<String> = []
	/// A folder appeared, or a watch died: missing folders may be watchable now.
	var needsNewWatches = false
	/// The kernel dropped events: every listener must re-read.
	var overflowed = false
}

extension FileChangeWatcher.State {
	/// Sorts a batch of events into what changed; marks listened folders whose watch died as missing.
	mutating func interpret(_ events: [InotifyEvent]) -> EventBatch {
		var batch = EventBatch()
		for event in events {
			if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
				batch.overflowed = true
				continue
			}

			guard let folder = watchedFolders[event.watch] else {
				continue
			}

			if event.mask & UInt32(IN_IGNORED) != 0 {
				// The watch is gone (its folder was deleted, moved or unmounted).
				watchedFolders[event.watch] = nil
				if listenedFolders.contains(folder), missingFolders[folder] == nil, !watchedFolders.values.contains(folder) {
					if listeners(inFolders: [folder]).isEmpty {
						// Listeners are held weakly: when all have gone, nobody misses the folder, so it is neither reported nor awaited.
						listenedFolders.remove(folder)
						attributeFolders.remove(folder)
					} else {
						missingFolders[folder] = FileChangeWatcher.MissingFolder(since: .now())
						batch.lostFolders.insert(folder)
					}
				}

				batch.needsNewWatches = batch.needsNewWatches || !missingFolders.isEmpty
			} else if event.mask & UInt32(IN_MOVE_SELF) != 0 {
				// The watch would follow the folder to its new place; end it, which reports IN_IGNORED.
				inotify_rm_watch(descriptor, event.watch)
			} else if event.name.isEmpty {
				// About the folder itself (its removal is handled by IN_IGNORED): a mode or owner change, asked for by listeners that care.
				if event.mask & UInt32(IN_ATTRIB) != 0 {
					batch.foldersWithNewAttributes.insert(folder)
				}
			} else if event.mask & UInt32(IN_DELETE_SELF) == 0 {
				batch.changedFiles.insert(folder + "/" + event.name)
				batch.changedFolders.insert(folder)
				if event.mask & UInt32(IN_ISDIR) != 0, !missingFolders.isEmpty {
					batch.needsNewWatches = true
				}
			}
		}

		return batch
	}

	/// Every folder with a listener still alive, to a file in it or to the folder itself: one pass over the listeners.
	private func foldersWithLiveListeners() -> Set<String> {
		var folders: Set<String> = []
		for (path, listeners) in listeners where listeners.contains(where: { $0.listener != nil }) {
			folders.insert(URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path)
		}

		for (path, listeners) in folderListeners where listeners.contains(where: { $0.listener != nil }) {
			folders.insert(path)
		}

		return folders
	}

	/// The listeners of files in `folders` and of the folders themselves.
	/// Adds `listener` to the listeners of its file (or of its folder, `wholeFolder`); returns the folder's path.
	@discardableResult
	mutating func register(_ listener: any FileChangeListener, wholeFolder: Bool, hearing: FileChangeWatcher.Hearing = .contents) -> String {
		let folderPath = (wholeFolder ? listener.url : listener.url.deletingLastPathComponent()).standardizedFileURL.path
		listenedFolders.insert(folderPath)
		if hearing == .attributes {
			attributeFolders.insert(folderPath)
		}
		let path = listener.url.standardizedFileURL.path
		if wholeFolder {
			folderListeners[path, default: []].removeAll { $0.listener == nil }
			folderListeners[path, default: []].append(FileChangeWatcher.WeakListener(listener: listener))
		} else {
			listeners[path, default: []].removeAll { $0.listener == nil }
			listeners[path, default: []].append(FileChangeWatcher.WeakListener(listener: listener))
		}

		return folderPath
	}

	/// Checks `folder`'s files on a timer from now on, as it cannot be watched; the first such folder is reported.
	mutating func poll(_ folder: String, because failure: FileChangeWatcher.WatchFailure) {
		if polledFolders.isEmpty {
			unreportedFallback = (folder, failure)
		}

		polledFolders.insert(folder)
	}

	/// The listeners ``FileChangePolling`` checks, by the path listened to: every one when inotify could not be had, else those in polled folders.
	func polledListeners() -> [String: [any FileChangeListener]] {
		let files = isPolling ? listeners : listeners.filter { polledFolders.contains(URL(fileURLWithPath: $0.key).deletingLastPathComponent().standardizedFileURL.path) }
		let folders = isPolling ? folderListeners : folderListeners.filter { polledFolders.contains($0.key) }
		return files.mapValues { $0.compactMap(\.listener) }.merging(folders.mapValues { $0.compactMap(\.listener) }) { $0 + $1 }
	}

	/// The events to ask for on the listened folder `folder`.
	func events(ofFolder folder: String) -> UInt32 {
		FileChangeWatcher.folderEvents | (attributeFolders.contains(folder) ? FileChangeWatcher.attributeEvents : 0)
	}

	func listeners(inFolders folders: Set<String>) -> [any FileChangeListener] {
		guard !folders.isEmpty else {
			return []
		}

		let files = listeners.filter { folders.contains(URL(fileURLWithPath: $0.key).deletingLastPathComponent().standardizedFileURL.path) }
		return files.values.flatMap { $0.compactMap(\.listener) }
			+ folders.flatMap { folderListeners[$0, default: []].compactMap(\.listener) }
	}

	/**
	Watches each missing folder that exists again; for the others, watches the
	nearest existing ancestor, whose events announce the next folder level.
	Returns the folders that appeared, with when they went missing (`nil`:
	never seen before).
	*/
	mutating func watchMissingFolders() -> [String: DispatchTime?] {
		let foldersWithListeners = foldersWithLiveListeners()
		for folder in missingFolders.keys where !foldersWithListeners.contains(folder) {
			// Its listeners have all gone while it was missing: stop waiting for it.
			missingFolders[folder] = nil
			listenedFolders.remove(folder)
			attributeFolders.remove(folder)
		}

		var recovered: [String: DispatchTime?] = [:]
		for (folder, missing) in missingFolders {
			// Bounded: each round either watches the folder or an ancestor one level closer to it.
			rounds: for _ in 0..<64 {
				switch addWatch(descriptor, folder, events(ofFolder: folder)) {
				case .success(let watch):
					watchedFolders[watch] = folder
					missingFolders[folder] = nil
					recovered[folder] = .some(missing.since)
					break rounds
				case .failure(let failure) where !failure.isMissingFolder:
					// It exists again but cannot be watched: its files are checked on a timer, which also sees what changed meanwhile.
					missingFolders[folder] = nil
					poll(folder, because: failure)
					break rounds
				case .failure:
					break
				}

				let ancestor: String
				switch watchNearestAncestor(of: folder) {
				case .watched(let path, let ancestorWatch):
					ancestor = path
					missingFolders[folder]?.ancestorWatch = ancestorWatch
				case .unwatchable(let failure):
					// No ancestor can announce its return (the user's watch limit, say): its files are checked on a timer.
					missingFolders[folder] = nil
					poll(folder, because: failure)
					break rounds
				case .noAncestor:
					break rounds
				}

				// The next level may have appeared before the watch existed; if not, the watch will announce it.
				if !FileManager.default.fileExists(atPath: Self.nextLevel(from: ancestor, toward: folder)) {
					break
				}
			}
		}

		endUnneededAncestorWatches()
		return recovered
	}

	/// What watching the nearest existing ancestor of a missing folder came to.
	private enum AncestorWatch {
		case watched(path: String, watch: Int32)
		/// An ancestor exists but cannot be watched, for this reason.
		case unwatchable(FileChangeWatcher.WatchFailure)
		/// No ancestor exists, up to `/`.
		case noAncestor
	}

	private mutating func watchNearestAncestor(of folder: String) -> AncestorWatch {
		var ancestor = URL(fileURLWithPath: folder).deletingLastPathComponent()
		while true {
			switch addWatch(descriptor, ancestor.path, FileChangeWatcher.ancestorEvents) {
			case .success(let watch):
				watchedFolders[watch] = ancestor.standardizedFileURL.path
				return .watched(path: ancestor.standardizedFileURL.path, watch: watch)
			case .failure(let failure) where !failure.isMissingFolder:
				return .unwatchable(failure)
			case .failure:
				break
			}

			guard ancestor.path != "/" else {
				return .noAncestor
			}

			ancestor.deleteLastPathComponent()
		}
	}

	/// The child of `ancestor` on the way to `folder`.
	private static func nextLevel(from ancestor: String, toward folder: String) -> String {
		let remainder = folder.dropFirst(ancestor.count).drop { $0 == "/" }
		let component = remainder.prefix { $0 != "/" }
		return (ancestor == "/" ? "" : ancestor) + "/" + component
	}

	/// Stops watching ancestors no missing folder waits for, so their unrelated activity costs nothing.
	private mutating func endUnneededAncestorWatches() {
		let needed = Set(missingFolders.values.compactMap(\.ancestorWatch))
		for (watch, folder) in watchedFolders where !listenedFolders.contains(folder) && !needed.contains(watch) {
			inotify_rm_watch(descriptor, watch)
			watchedFolders[watch] = nil
		}
	}
}

/// One inotify event, as `read(2)` returns it from the descriptor.
struct InotifyEvent {
	let watch: Int32
	let mask: UInt32
	/// The file's name within the watched folder; empty for events about the folder itself.
	let name: String

	static func parse(_ bytes: Slice<UnsafeRawBufferPointer>) -> [InotifyEvent] {
		let headerSize = MemoryLayout<inotify_event>.size
		let bytes = UnsafeRawBufferPointer(rebasing: bytes)
		var events: [InotifyEvent] = []
		var offset = 0
		while offset + headerSize <= bytes.count {
			let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
			let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
			let nameLength = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
			let end = min(offset + headerSize + nameLength, bytes.count)
			let name = String(decoding: bytes[(offset + headerSize)..<end].prefix { $0 != 0 }, as: UTF8.self)
			events.append(InotifyEvent(watch: watch, mask: mask, name: name))
			offset += headerSize + nameLength
		}

		return events
	}
}
#endif
