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

	/// What one row of ``PostgresSyncTable/entriesQuery(namespace:)`` holds.
	enum Decoded {
		case entry(key: String, Defaults.RemoteEntry)
		/// A row the store skips: `column` is `NULL`, or holds what no device writes.
		case bad(key: String, column: String, reason: String)
		/// `column` has another type than the store's: the table is unusable until repaired.
		case unusableTable(column: String, problem: String)
	}

	/// Decodes one row column by column, so a bad row names its key and the column at fault.
	static func decode(_ row: PostgresRow) -> Decoded {
		let cells = Array(row)
		for (cell, column) in zip(cells, PostgresSyncTable.columns) where cell.dataType != column.dataType {
			return .unusableTable(column: column.name, problem: "is not of type \(column.sqlType)")
		}

		guard cells.count == PostgresSyncTable.columns.count, let key = try? cells[0].decode(String.self) else {
			return .unusableTable(column: "key", problem: "is NULL")
		}

		func field<Value: PostgresDecodable>(_ index: Int, _ type: Value.Type) -> Value? {
			try? cells[index].decode(Value.self)
		}

		guard let tombstone = field(2, Bool.self) else {
			return .bad(key: key, column: "tombstone", reason: "NULL")
		}

		guard let milliseconds = field(3, Int64.self) else {
			return .bad(key: key, column: "wall_ms", reason: "NULL")
		}

		guard let counter = field(4, Int64.self) else {
			return .bad(key: key, column: "counter", reason: "NULL")
		}

		guard let device = field(5, String.self) else {
			return .bad(key: key, column: "device", reason: "NULL")
		}

		guard let counter = UInt32(exactly: counter) else {
			return .bad(key: key, column: "counter", reason: "\(counter) is not a counter")
		}

		let timestamp = Defaults.SyncTimestamp(milliseconds: milliseconds, counter: counter, device: device)
		if tombstone {
			return .entry(key: key, Defaults.RemoteEntry(value: nil, timestamp: timestamp))
		}

		guard let value = field(1, ByteBuffer.self) else {
			return .bad(key: key, column: "value", reason: "NULL in a row that is not a tombstone")
		}

		guard
			case .array(let wrapped)? = PropertyListValue.parse(Data(value.readableBytesView)), wrapped.count == 1
		else {
			return .bad(key: key, column: "value", reason: "not a stored value")
		}

		return .entry(key: key, Defaults.RemoteEntry(value: Defaults.AnySerializable(storage: wrapped[0]), timestamp: timestamp))
	}
}
#endif
