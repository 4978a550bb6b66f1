import Foundation

/// What a suite file holds, and how it is written: a binary property list,
/// which keeps `Date` sub-second precision and `Float` values that Foundation's
/// XML writer loses, and which Foundation reads back.
package enum SuiteFileContents {
	enum Reading {
		case missing
		case contents([String: PropertyListValue])
		/// The file exists but is not a property-list dictionary (empty, truncated or not a plist).
		case unreadable(Data)
	}

	static func decode(_ data: Data?) -> Reading {
		guard let data else {
			return .missing
		}

		guard
			!data.isEmpty,
			let plist = try? PropertyListSerialization.propertyList(from: data, format: nil),
			case .dictionary(let contents)? = PropertyListValue(plist)
		else {
			return .unreadable(data)
		}

		return .contents(contents)
	}

	static func encode(_ contents: [String: PropertyListValue]) throws(Defaults.PersistenceError) -> Data {
		do {
			return try PropertyListSerialization.data(
				fromPropertyList: contents.mapValues(\.object),
				format: .binary,
				options: 0
			)
		} catch {
			throw .fileOperationFailed(operation: "encode", path: "property list", reason: "\(error)")
		}
	}

	/// The keys whose values differ between two snapshots (added, changed or removed).
	package static func changedKeys(from old: [String: PropertyListValue], to new: [String: PropertyListValue]) -> Set<String> {
		var keys = Set(new.keys.filter { old[$0] != new[$0] })
		keys.formUnion(old.keys.filter { new[$0] == nil })
		return keys
	}
}
