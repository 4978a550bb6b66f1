import Foundation

extension Defaults.RemoteEntry {
	/// How files store an entry (a shared folder's journals, a host relay's files):
	/// `{t: [milliseconds, counter, device], v: value}`, no `v` for a tombstone.
	package var propertyListValue: PropertyListValue {
		var fields: [String: PropertyListValue] = ["t": timestamp.propertyListValue]
		fields["v"] = value?.storage
		return .dictionary(fields)
	}

	/// An entry as files store it, or `nil` when `stored` is not one.
	package init?(propertyListValue stored: PropertyListValue) {
		guard
			case .dictionary(let fields) = stored,
			let timestamp = fields["t"].flatMap(Defaults.SyncTimestamp.init(propertyListValue:))
		else {
			return nil
		}

		self.init(value: fields["v"].map(Defaults.AnySerializable.init(storage:)), timestamp: timestamp)
	}
}
