import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Something that wants to know when a preferences file was written, by this or another process.
package protocol ExternalChangeListener: AnyObject, Sendable {
	/// The file listened to.
	var url: URL { get }

	/// Called on the watcher's thread after the file was replaced, written, created or deleted.
	func fileDidChange()
}

/**
Tells each suite file when another process replaced it.

One inotify descriptor watches the folders of all files listened to (a
folder, because an atomic replace swaps the file's inode); one background
thread reads its events and notifies the listeners of the files involved. A
``SuiteFile`` then diffs the file against what it last saw and hands the
differences to the change engine. Events arrive within milliseconds of the
rename.
*/
package final class ExternalChangeWatcher: @unchecked Sendable {
	package static let shared = ExternalChangeWatcher()

	private struct State {
		var descriptor: Int32 = -1
		var folders: [Int32: URL] = [:]
		var listeners: [String: [WeakListener]] = [:]
		/// Listeners to every file of a folder, by the folder's path.
		var folderListeners: [String: [WeakListener]] = [:]
	}

	private struct WeakListener {
		weak var listener: (any ExternalChangeListener)?
	}

	private let state = Locked(State())

	/// Starts notifying `listener`, which is held weakly, of changes to its file.
	package func watch(_ listener: any ExternalChangeListener) {
		watch(listener, folder: listener.url.deletingLastPathComponent(), wholeFolder: false)
	}

	/// Starts notifying `listener`, whose `url` is a folder, of changes to any file in it.
	func watchFolder(_ listener: any ExternalChangeListener) {
		watch(listener, folder: listener.url, wholeFolder: true)
	}

	private func watch(_ listener: any ExternalChangeListener, folder: URL, wholeFolder: Bool) {
		#if canImport(Glibc)
		let (descriptor, isNew) = state.withLock { state -> (Int32, Bool) in
			if state.descriptor >= 0 {
				return (state.descriptor, false)
			}

			state.descriptor = inotify_init1(Int32(IN_CLOEXEC))
			return (state.descriptor, true)
		}

		guard descriptor >= 0 else {
			DiagnosticReporter.report(.persistenceFailed, key: nil, "cannot watch for changes by other processes: inotify is unavailable")
			return
		}

		try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
		let watch = inotify_add_watch(descriptor, folder.path, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE))
		state.withLock { state in
			if watch >= 0 {
				state.folders[watch] = folder.standardizedFileURL
			}

			let path = listener.url.standardizedFileURL.path
			if wholeFolder {
				state.folderListeners[path, default: []].removeAll { $0.listener == nil }
				state.folderListeners[path, default: []].append(WeakListener(listener: listener))
			} else {
				state.listeners[path, default: []].removeAll { $0.listener == nil }
				state.listeners[path, default: []].append(WeakListener(listener: listener))
			}
		}

		if isNew {
			let thread = Thread { [self] in
				readEvents(from: descriptor)
			}
			thread.name = "Defaults.ExternalChangeWatcher"
			thread.start()
		}
		#endif
	}

	#if canImport(Glibc)
	private func readEvents(from descriptor: Int32) {
		let headerSize = MemoryLayout<inotify_event>.size
		var buffer = [UInt8](repeating: 0, count: 64 * 1024)
		while true {
			let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
			if count <= 0 {
				if count < 0, errno == EINTR {
					continue
				}

				return
			}

			var changed: Set<String> = []
			var changedFolders: Set<String> = []
			buffer.withUnsafeBytes { bytes in
				var offset = 0
				while offset + headerSize <= count {
					let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
					let nameLength = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
					let nameBytes = bytes[(offset + headerSize)..<(offset + headerSize + nameLength)]
					let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
					if let folder = state.withLock({ $0.folders[watch] }) {
						changed.insert(folder.appendingPathComponent(name).path)
						changedFolders.insert(folder.path)
					}

					offset += headerSize + nameLength
				}
			}

			let listeners = state.withLock { state in
				changed.flatMap { state.listeners[$0, default: []].compactMap(\.listener) }
					+ changedFolders.flatMap { state.folderListeners[$0, default: []].compactMap(\.listener) }
			}
			for listener in listeners {
				listener.fileDidChange()
			}
		}
	}
	#endif
}
