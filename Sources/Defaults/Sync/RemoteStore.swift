import Foundation

extension Defaults {
	/**
	One synced key's value on the remote, with the time it was explicitly changed.

	A `nil` value is a tombstone: the key was reset or removed at `timestamp`,
	and that removal travels to other devices like a value.

	```swift
	let stamp = Defaults.SyncTimestamp(milliseconds: 1_795_336_200_000, counter: 0, device: "laptop")
	let entry = Defaults.RemoteEntry(value: "dark", timestamp: stamp)
	let tombstone = Defaults.RemoteEntry(value: nil, timestamp: stamp)
	```
	*/
	public struct RemoteEntry: Hashable, Sendable {
		/// The key's value in its stored form, or `nil` for a tombstone (the key was reset or removed).
		public var value: AnySerializable?
		/// When, and on which device, the key was explicitly changed.
		public var timestamp: SyncTimestamp

		/// An entry of `value` (or a tombstone, with `nil`) changed at `timestamp`.
		public init(value: AnySerializable?, timestamp: SyncTimestamp) {
			self.value = value
			self.timestamp = timestamp
		}
	}

	/**
	What a remote can hold; a value that would exceed it is reported as a
	`syncFailed` diagnostic and stays on the device, never silently lost.

	```swift
	/// A remote that holds no more than a small key-value service allows, kept in a shared folder.
	final class TinyRemote: Defaults.RemoteStore {
		let limits = Defaults.RemoteLimits(maximumKeys: 100, maximumTotalBytes: 64_000)
		private let folder: Defaults.SharedFolderRemoteStore

		init(folder: URL) throws {
			self.folder = try Defaults.SharedFolderRemoteStore(folder: folder)
		}

		func entries() async throws -> [String: Defaults.RemoteEntry] { try await folder.entries() }
		func publish(_ entries: [String: Defaults.RemoteEntry]) async throws { try await folder.publish(entries) }
		func changes() -> AsyncStream<Set<String>> { folder.changes() }
	}
	```
	*/
	public struct RemoteLimits: Hashable, Sendable {
		/// How many keys the remote holds at most; `nil` for no limit.
		public var maximumKeys: Int?
		/// How many bytes all values take at most, each counted as a binary property list; `nil` for no limit.
		public var maximumTotalBytes: Int?

		/// Limits of `maximumKeys` keys and `maximumTotalBytes` bytes; leave either out for no limit.
		public init(maximumKeys: Int? = nil, maximumTotalBytes: Int? = nil) {
			self.maximumKeys = maximumKeys
			self.maximumTotalBytes = maximumTotalBytes
		}

		/// `NSUbiquitousKeyValueStore`: 1,024 keys and 1 MB in all.
		public static let ubiquitousKeyValueStore = RemoteLimits(maximumKeys: 1_024, maximumTotalBytes: 1_000_000)

		/// No limit: a database or a shared folder.
		public static let unlimited = RemoteLimits()
	}

	/**
	Where synced keys meet: a store every device reads and writes.

	The synchroniser merges with it key by key, the latest explicit change
	winning (see ``Defaults/iCloud``). Implementations:
	``SharedFolderRemoteStore`` (any folder a file-sync service replicates),
	`InMemoryRemoteStore` (product `DefaultsTesting`, for tests), and on Apple
	platforms the `NSUbiquitousKeyValueStore` adapter.

	Requirements for a conforming store:
	- ``entries()`` returns the newest entry it knows for every key, tombstones
	  included.
	- ``publish(_:)`` keeps, per key, whichever entry has the later timestamp
	  (its own or the published one): publishing an older entry changes nothing.
	- ``changes()`` yields, after entries arrive from elsewhere, the keys that
	  may have changed (an empty set means "any").
	- Methods may be called from any task; a store is `Sendable`.
	- ``deviceIdentity`` names the device when the store has a name for it
	  (the default is `nil`: the machine's identity is used).

	```swift
	Defaults.iCloud.remote = try Defaults.SharedFolderRemoteStore(folder: syncFolder, device: "laptop")
	```

	To test a store of your own, run `RemoteStoreConformance` (product
	`DefaultsTesting`) on it: it checks these rules against two handles on one
	remote, as two devices hold them, and returns the rules they break. Every
	store the library ships passes it.

	<!-- check: test -->
	```swift
	import Defaults
	import DefaultsTesting
	import Foundation
	import Testing

	@Test func sharedFolderStoreConforms() async throws {
		let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
		defer { try? FileManager.default.removeItem(at: folder) }
		// Replace with two handles on your store's remote.
		let laptop = try Defaults.SharedFolderRemoteStore(folder: folder, device: "laptop")
		let desktop = try Defaults.SharedFolderRemoteStore(folder: folder, device: "desktop")
		let violations = await RemoteStoreConformance.violations(of: laptop, peer: desktop)
		#expect(violations.isEmpty, "\(violations)")
	}
	```
	*/
	public protocol RemoteStore: AnyObject, Sendable {
		/// The newest entry of every key.
		func entries() async throws -> [String: RemoteEntry]

		/// Offers entries; each replaces the stored one only if it is newer.
		func publish(_ entries: [String: RemoteEntry]) async throws

		/// Keys that may have changed remotely, as they arrive.
		func changes() -> AsyncStream<Set<String>>

		/// The store's size limits.
		var limits: RemoteLimits { get }

		/// The name this device's changes are signed with, when the store has one; `nil` for the machine's identity.
		var deviceIdentity: String? { get }
	}
}

extension Defaults.RemoteStore {
	/**
	No name of its own: changes are signed with the machine's identity.

	```swift
	func signer(of store: some Defaults.RemoteStore) -> String {
		store.deviceIdentity ?? "this machine"   // nil unless the store names the device
	}
	```
	*/
	public var deviceIdentity: String? {
		nil
	}
}
