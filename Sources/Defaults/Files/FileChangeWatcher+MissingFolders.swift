import Foundation
#if canImport(Glibc)
import Glibc

/**
Folders listened to that do not exist (never made yet, or removed or moved
away): the nearest existing ancestor is watched until the next level of the
path appears, then the folder itself again. Called with the watcher's state
lock held.
*/
extension FileChangeWatcher.State {
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
#endif
