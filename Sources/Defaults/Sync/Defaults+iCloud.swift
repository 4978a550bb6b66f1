import Foundation

extension Defaults {
	/**
	Syncs chosen keys between devices through a remote store.

	Mark a key with `iCloud: true`, or add it here. On Apple platforms the
	remote is `NSUbiquitousKeyValueStore`; elsewhere set ``remote`` to a store,
	such as a ``SharedFolderRemoteStore`` in a folder that Syncthing, Dropbox,
	NFS or iCloud Drive replicates.

	```swift
	extension Defaults.Keys {
		static let theme = Key<String>("theme", default: "light", iCloud: true)
	}

	Defaults.iCloud.remote = try Defaults.SharedFolderRemoteStore(folder: syncFolder)
	Defaults[.theme] = "dark"               // published to every other device
	await Defaults.iCloud.waitForSyncCompletion()
	```

	**How values merge.** Every explicit change of a synced key (a write, a
	`reset`, a removal) is stamped with the time it was made, on a clock that
	never runs behind a change it has already seen, so one device's own changes
	stay in order even when its wall clock is wrong. For each key, the change
	with the latest stamp wins on every device; a reset or removal travels
	as a change too. A key that was never changed on a device has no stamp
	there: its value is only a default, so a newly installed device takes the
	values the others have and never overwrites them with its defaults.
	*/
	public enum iCloud {
		/// The remote store synced keys meet in (`NSUbiquitousKeyValueStore` on Apple platforms; set one elsewhere).
		public static var remote: (any RemoteStore)? {
			get { Synchronizer.shared.remote }
			set { Synchronizer.shared.remote = newValue }
		}

		/// The keys being synced.
		public static var keys: Set<Defaults.Keys> {
			Synchronizer.shared.keys
		}

		/// Reports what the synchroniser does as `syncEvent` diagnostics.
		public static var isDebug: Bool {
			get { DefaultsSystem.isSyncDebug.withLock { $0 } }
			set { DefaultsSystem.isSyncDebug.withLock { $0 = newValue } }
		}

		/**
		Starts syncing keys: their remote values are adopted where this device never changed them.
		A secret key (`secret: true`) is never synced: it is left out, with a diagnostic.

		```swift
		Defaults.iCloud.add(.theme, .fontSize)
		```
		*/
		public static func add(_ keys: Defaults.Keys...) {
			add(keys)
		}

		/// Starts syncing keys.
		public static func add(_ keys: [Defaults.Keys]) {
			installPlatformRemoteIfNeeded()
			Synchronizer.shared.add(keys)
		}

		/**
		Stops syncing keys; their local values stay.

		```swift
		Defaults.iCloud.remove(.fontSize)
		```
		*/
		public static func remove(_ keys: Defaults.Keys...) {
			Synchronizer.shared.remove(keys)
		}

		/// Stops syncing every key; local values stay.
		public static func removeAll() {
			Synchronizer.shared.removeAll()
		}

		/**
		Returns once every change made before the call has been published and every remote change seen has been applied.

		```swift
		Defaults[.theme] = "dark"
		await Defaults.iCloud.waitForSyncCompletion()
		```
		*/
		public static func waitForSyncCompletion() async {
			await Synchronizer.shared.waitForSyncCompletion()
		}

		private static func installPlatformRemoteIfNeeded() {
			#if canImport(Darwin)
			if remote == nil {
				remote = UbiquitousRemoteStore()
			}
			#endif
		}
	}
}
