import Defaults
import Foundation

/**
How `fleet read` and `fleet watch` print a remote entry: the value as
`defaults read` prints it (or `(deleted)` for a tombstone), with who wrote it
and when, the time in ISO 8601 (UTC) from the stamp's wall-clock milliseconds.

Text: `greeting = hello  [2026-11-22T08:30:00.123Z by laptop#a1b2]`.
JSON: `{"value": "hello", "deleted": false, "device": "laptop#a1b2", "time": "2026-11-22T08:30:00.123Z", "counter": 0}`,
data and dates tagged as the library's JSON export tags them (`{"$data": "<base64>"}`, `{"$date": "<ISO 8601>"}`).
*/
enum FleetEntryText {
	static func date(of stamp: Defaults.SyncTimestamp) -> Date {
		Date(timeIntervalSince1970: Double(stamp.milliseconds) / 1000)
	}

	/// `[<time> by <device>]`, with the counter when several changes share a millisecond.
	static func signature(of stamp: Defaults.SyncTimestamp) -> String {
		let counter = stamp.counter > 0 ? " #\(stamp.counter)" : ""
		return "[\(DateText.iso8601(date(of: stamp)))\(counter) by \(stamp.device)]"
	}

	/// The value in one line, or `(deleted)`.
	static func value(of entry: Defaults.RemoteEntry) -> String {
		entry.value?.storage.map { TextFormat.render($0, style: .singleLine) } ?? "(deleted)"
	}

	/// `<key> = <value>  [<time> by <device>]`, or `<key> (deleted)  [...]`.
	static func line(key: String, _ entry: Defaults.RemoteEntry) -> String {
		let key = TextFormat.quotedIfNeeded(key)
		let value = entry.value?.storage.map { "\(key) = \(TextFormat.render($0, style: .singleLine))" } ?? "\(key) (deleted)"
		return "\(value)  \(signature(of: entry.timestamp))"
	}

	/// The entry as a JSON-ready dictionary: value (absent when deleted), deleted, device, time, milliseconds, counter.
	/// The value is in the tagged form of the library's JSON export (`{"$data": …}`, `{"$date": …}`), so every type stays distinct.
	static func fields(of entry: Defaults.RemoteEntry) -> [String: PropertyListValue] {
		var fields: [String: PropertyListValue] = [
			"deleted": .bool(entry.value == nil),
			"device": .string(entry.timestamp.device),
			"time": .string(DateText.iso8601(date(of: entry.timestamp))),
			"milliseconds": .integer(Int(entry.timestamp.milliseconds)),
			"counter": .integer(Int(entry.timestamp.counter)),
		]
		// A number JSON cannot hold (NaN) has no tagged form: it prints as `null`, as `defaults read --json` prints it.
		fields["value"] = entry.value?.storage.map { StoredValueJSON.tagged($0) ?? $0 }
		return fields
	}
}
