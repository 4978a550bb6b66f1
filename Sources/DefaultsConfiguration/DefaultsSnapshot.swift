#if Configuration
import Configuration
import Defaults

/// The suite's values at one moment, read at once (``DefaultsProvider/snapshot()``).
struct DefaultsSnapshot: ConfigSnapshot, Equatable {
	let providerName: String
	let values: [String: PropertyListValue]
	let lookup: ValueLookup

	func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
		try lookup.result(for: key, type: type) { values[$0] }
	}

	/// Snapshots of one provider are the same when their values are.
	static func == (lhs: DefaultsSnapshot, rhs: DefaultsSnapshot) -> Bool {
		lhs.values == rhs.values
	}
}
#endif
