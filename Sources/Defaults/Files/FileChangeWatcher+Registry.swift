import Foundation
#if canImport(Glibc)
import Glibc

/**
The watcher's registry of listeners, by the file (or folder) each listens
to: who is told of a change in which folder, which folders are polled, and
what each watch asks inotify for. Called with the watcher's state lock held.
*/
extension FileChangeWatcher.State {
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

	/// The listeners of files in `folders` and of the folders themselves.
	func listeners(inFolders folders: Set<String>) -> [any FileChangeListener] {
		guard !folders.isEmpty else {
			return []
		}

		let files = listeners.filter { folders.contains(URL(fileURLWithPath: $0.key).deletingLastPathComponent().standardizedFileURL.path) }
		return files.values.flatMap { $0.compactMap(\.listener) }
			+ folders.flatMap { folderListeners[$0, default: []].compactMap(\.listener) }
	}

	/// Every folder with a listener still alive, to a file in it or to the folder itself: one pass over the listeners.
	func foldersWithLiveListeners() -> Set<String> {
		var folders: Set<String> = []
		for (path, listeners) in listeners where listeners.contains(where: { $0.listener != nil }) {
			folders.insert(URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path)
		}

		for (path, listeners) in folderListeners where listeners.contains(where: { $0.listener != nil }) {
			folders.insert(path)
		}

		return folders
	}
}
#endif
