import Foundation
#if canImport(Glibc)
import Glibc

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
