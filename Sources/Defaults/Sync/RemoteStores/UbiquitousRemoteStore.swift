#if canImport(Darwin)
import Foundation

/**
The remote on Apple platforms: `NSUbiquitousKeyValueStore`.

Each synced key is stored under its own name as an array that starts like the
Defaults package's (`[timestamp, value]`), so values it synced are read, and
carries the hybrid clock's counter and device after them:
`[Date, value?, counter, device]`. A tombstone has no value (`[Date, counter,
device]` is told apart by its length and element types).
*/
final class UbiquitousRemoteStore: Defaults.RemoteStore, @unchecked Sendable {
	private let store = NSUbiquitousKeyValueStore.default
	let limits = Defaults.RemoteLimits.ubiquitousKeyValueStore

	init() {
		store.synchronize()
	}

	func entries() async throws -> [String: Defaults.RemoteEntry] {
		store.dictionaryRepresentation.compactMapValues(Self.entry(from:))
	}

	func publish(_ entries: [String: Defaults.RemoteEntry]) async throws {
		for (key, entry) in entries {
			if let current = store.array(forKey: key).flatMap(Self.entry(from:)), current.timestamp >= entry.timestamp {
				continue
			}

			let date = Date(timeIntervalSince1970: Double(entry.timestamp.milliseconds) / 1000)
			var stored: [Any] = [date]
			if let object = entry.value?.storage?.object {
				stored.append(object)
			}

			stored += [Int(entry.timestamp.counter), entry.timestamp.device]
			store.set(stored, forKey: key)
		}

		store.synchronize()
	}

	func changes() -> AsyncStream<Set<String>> {
		AsyncStream { continuation in
			// Only handed back to `removeObserver`, which any thread may call.
			nonisolated(unsafe) let observer = NotificationCenter.default.addObserver(
				forName: NSUbiquitousKeyValueStore.didChangeExternallyNotification,
				object: store,
				queue: nil
			) { notification in
				let keys = notification.userInfo?[NSUbiquitousKeyValueStoreChangedKeysKey] as? [String] ?? []
				continuation.yield(Set(keys))
			}
			continuation.onTermination = { _ in
				NotificationCenter.default.removeObserver(observer)
			}
		}
	}

	private static func entry(from object: Any) -> Defaults.RemoteEntry? {
		guard let array = object as? [Any], let date = array.first as? Date else {
			return nil
		}

		let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
		let hasClock = array.count >= 3 && array[array.count - 1] is String && array[array.count - 2] is Int
		let counter = hasClock ? UInt32(clamping: array[array.count - 2] as! Int) : 0
		let device = hasClock ? array[array.count - 1] as! String : ""
		let valueCount = array.count - 1 - (hasClock ? 2 : 0)
		let value = valueCount >= 1 ? PropertyListValue(array[1]).map(Defaults.AnySerializable.init(storage:)) : nil
		return Defaults.RemoteEntry(value: value, timestamp: Defaults.SyncTimestamp(milliseconds: milliseconds, counter: counter, device: device))
	}
}
#endif
