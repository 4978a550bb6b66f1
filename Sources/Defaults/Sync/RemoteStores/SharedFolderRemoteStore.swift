import Foundation

extension Defaults {
	/**
	A remote store in a folder that a file-sync service (Syncthing, Dropbox,
	NFS, iCloud Drive) replicates between devices.

	Each device writes only its own journal, `<device>.defaults-journal.plist`,
	which holds the newest entry it published for every key; every reader
	merges all the journals, keeping the latest entry of each key. Two devices
	therefore never write the same file, so a sync service never has a conflict
	to resolve and never drops one device's version of a file. A journal is
	replaced atomically under a lock, like a suite file, and changes are seen
	within milliseconds through inotify on Linux (every two seconds elsewhere).

	```swift
	let folder = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent("Sync/preferences")
	Defaults.iCloud.remote = try Defaults.SharedFolderRemoteStore(folder: folder)
	```
	*/
	public final class SharedFolderRemoteStore: RemoteStore {
		/// The replicated folder.
		public let folder: URL
		/// The name of this device's journal, which its changes are signed with too.
		public let device: String
		public let limits = RemoteLimits.unlimited

		private let journal: PreferencesFile
		private let watchers = Locked<[FolderChangeRelay]>([])
		/// Implausible entries already reported, as `journal/key@timestamp`: each is reported once.
		private let refused = Locked<Set<String>>([])

		/// A store in `folder` (created if needed), writing the journal of `device` (by default this machine's ID).
		public init(folder: URL, device: String? = nil) throws(PersistenceError) {
			let device = device ?? DeviceIdentity.current
			try PreferencesLocation.validate(suiteName: device)
			do {
				try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
			} catch {
				throw .fileOperationFailed(operation: "create the folder", path: folder.path, reason: "\(error)")
			}

			self.folder = folder
			self.device = device
			journal = PreferencesFile(url: folder.appendingPathComponent(Self.journalName(of: device)))
		}

		/// The journal's name: this device's changes are signed with it (and a tag of the process).
		public var deviceIdentity: String? {
			device
		}

		private static let journalSuffix = SideFileNames.journalSuffix + ".plist"

		private static func journalName(of device: String) -> String {
			device + journalSuffix
		}

		public func entries() async throws -> [String: RemoteEntry] {
			let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
			var merged: [String: RemoteEntry] = [:]
			let now = HybridLogicalClock.systemMilliseconds()
			for name in names where name.hasSuffix(Self.journalSuffix) && !name.hasPrefix(".") {
				// A journal that does not parse (being replicated, damaged) is skipped until it does.
				guard let contents = try? PreferencesFile(url: folder.appendingPathComponent(name)).read() else {
					continue
				}

				for (key, stored) in contents {
					guard let entry = Defaults.RemoteEntry(propertyListValue: stored) else {
						continue
					}

					// Left out before merging: one journal's impossible stamp must not hide the others' entries of the key.
					if let reason = entry.timestamp.implausibility(at: now) {
						if refused.withLock({ $0.insert("\(name)/\(key)@\(entry.timestamp)").inserted }) {
							DiagnosticReporter.report(.syncFailed, key: key, "the entry stamped \(entry.timestamp) in \(name) was refused: \(reason)")
						}
					} else if merged[key].map({ entry.timestamp > $0.timestamp }) ?? true {
						merged[key] = entry
					}
				}
			}

			return merged
		}

		public func publish(_ entries: [String: RemoteEntry]) async throws {
			let now = HybridLogicalClock.systemMilliseconds()
			try journal.update { contents in
				var values = contents ?? [:]
				for (key, entry) in entries {
					let current = values[key].flatMap(Defaults.RemoteEntry.init(propertyListValue:))
					// An impossible stamp (an edited journal) is replaced: it was never adopted anywhere.
					if current.map({ entry.timestamp > $0.timestamp || $0.timestamp.implausibility(at: now) != nil }) ?? true {
						values[key] = entry.propertyListValue
					}
				}

				contents = values
			}
		}

		public func changes() -> AsyncStream<Set<String>> {
			let (stream, continuation) = AsyncStream.makeStream(of: Set<String>.self, bufferingPolicy: .bufferingNewest(1))
			let relay = FolderChangeRelay(folder: folder, continuation: continuation)
			watchers.withLock { $0.append(relay) }
			relay.start()
			continuation.onTermination = { [weak self] _ in
				relay.stop()
				self?.watchers.withLock { $0.removeAll { $0 === relay } }
			}

			return stream
		}
	}
}

/// Turns changes to any file of the folder into change-feed events.
private final class FolderChangeRelay: FileChangeListener, Sendable {
	let url: URL
	private let continuation: AsyncStream<Set<String>>.Continuation
	private let poller = Locked<Task<Void, Never>?>(nil)

	init(folder: URL, continuation: AsyncStream<Set<String>>.Continuation) {
		url = folder
		self.continuation = continuation
	}

	func start() {
		#if canImport(Glibc)
		FileChangeWatcher.shared.watchFolder(self)
		#else
		let task = Task.detached { [continuation] in
			while !Task.isCancelled {
				try? await Task.sleep(for: .seconds(2))
				continuation.yield([])
			}
		}
		poller.withLock { $0 = task }
		#endif
	}

	func stop() {
		poller.withLock { $0?.cancel() }
	}

	func fileDidChange() {
		continuation.yield([])
	}
}
