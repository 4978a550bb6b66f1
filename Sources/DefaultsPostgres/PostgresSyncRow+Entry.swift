#if Postgres
import Defaults
import Foundation
import PostgresNIO

/// Converts between remote entries and rows. A value is stored in its stored form, as a binary property list.
extension PostgresSyncRow {
	/// `nil` when the value cannot be written as a property list (never the case for a value the library stored).
	init?(key: String, entry: Defaults.RemoteEntry) {
		let bytes: Data
		if let storage = entry.value?.storage {
			// Wrapped in an array: a property list's top level is a container on every platform.
			guard let data = try? PropertyListSerialization.data(fromPropertyList: [storage.object], format: .binary, options: 0) else {
				return nil
			}

			bytes = data
		} else {
			bytes = Data()
		}

		self.init(
			key: key,
			value: ByteBuffer(bytes: bytes),
			tombstone: entry.value?.storage == nil,
			milliseconds: entry.timestamp.milliseconds,
			counter: Int64(entry.timestamp.counter),
			device: entry.timestamp.device
		)
	}

	/// The entry a row holds; `nil` for a row that does not decode (written by something else, or damaged).
	static func entry(value: ByteBuffer?, tombstone: Bool, milliseconds: Int64, counter: Int64, device: String) -> Defaults.RemoteEntry? {
		guard let counter = UInt32(exactly: counter) else {
			return nil
		}

		let timestamp = Defaults.SyncTimestamp(milliseconds: milliseconds, counter: counter, device: device)
		if tombstone {
			return Defaults.RemoteEntry(value: nil, timestamp: timestamp)
		}

		guard
			let value,
			let plist = try? PropertyListSerialization.propertyList(from: Data(value.readableBytesView), format: nil),
			case .array(let wrapped)? = PropertyListValue(plist), wrapped.count == 1
		else {
			return nil
		}

		return Defaults.RemoteEntry(value: Defaults.AnySerializable(storage: wrapped[0]), timestamp: timestamp)
	}
}
#endif
