import Foundation

/// What any property-list file the library reads or writes holds (a suite's
/// file, an administrator's, the global domain, sync's and the relay's files),
/// and how it is written: a binary property list, which keeps `Date`
/// sub-second precision and `Float` values that Foundation's XML writer loses,
/// and which Foundation reads back.
package enum PropertyListFileContents {
	package enum Reading {
		case missing
		case contents([String: PropertyListValue])
		/// The file exists but is not a property-list dictionary (empty, truncated or not a plist).
		case unreadable(Data)
		/// The file is larger than a preferences file may be, and was not read.
		case tooLarge(size: Int64, limit: Int64)

		/// What is wrong with the file, for a diagnostic; `nil` when nothing is.
		var problem: String? {
			switch self {
			case .missing, .contents:
				nil
			case .unreadable(let data):
				"is not a readable property list (\(data.count) bytes)"
			case .tooLarge(let size, let limit):
				"is \(size) bytes, more than the \(limit / 1024 / 1024) MiB a preferences file may have, and was not read"
			}
		}

		/// The bytes of a file that does not parse.
		var unreadableBytes: Data? {
			if case .unreadable(let data) = self {
				return data
			}

			return nil
		}

		/// Whether the file holds something to keep for the user before it is replaced: an empty one holds nothing.
		var mustBeSetAside: Bool {
			switch self {
			case .missing, .contents:
				false
			case .unreadable(let data):
				!data.isEmpty
			case .tooLarge:
				true
			}
		}
	}

	/**
	Reads a file's bytes as ``PropertyListValue/parse(_:)`` does: a binary
	property list by the library's own reader only (a kind no setting holds,
	such as a set, makes the file unreadable, never a crash), XML and text by
	Foundation.
	*/
	package static func decode(_ data: Data?) -> Reading {
		guard let data else {
			return .missing
		}

		guard case .dictionary(let contents)? = PropertyListValue.parse(data) else {
			return .unreadable(data)
		}

		return .contents(contents)
	}

	/**
	The dictionary a file's bytes hold, each value made into a `Value` as it
	is read, or `nil` when ``decode(_:)`` would not find `.contents`: a binary
	property list is decoded straight into the result, with no table of
	``PropertyListValue``s made only to be copied.
	*/
	static func decodeDictionary<Value>(_ data: Data, _ transform: (PropertyListValue) -> Value) -> [String: Value]? {
		if PropertyListValue.isBinaryPropertyList(data) {
			return BinaryPropertyListReader.decodeDictionary(data, transform)
		}

		guard case .contents(let contents) = decode(data) else {
			return nil
		}

		return contents.mapValues(transform)
	}

	/**
	The bytes of a file holding `contents`: a binary property list, written by
	the library's own writer (Foundation's costs seconds per megabyte of `Data`
	on Linux). Their count is the file's size.
	*/
	package static func encode(_ contents: [String: PropertyListValue], for path: String) throws(Defaults.PersistenceError) -> Data {
		// Never a file the library would refuse to read: every process would start that suite empty.
		let (data, size) = BinaryPropertyListWriter.encode(.dictionary(contents), sizeLimit: Int(FileLimits.maximumFileSize))
		guard let data else {
			throw .fileWouldBeTooLarge(path: path, size: Int64(size), limit: FileLimits.maximumFileSize)
		}

		return data
	}

	/// The size of the file ``encode(_:for:)`` makes of `contents`, measured without writing it.
	static func encodedSize(_ contents: [String: PropertyListValue]) -> Int64 {
		Int64(BinaryPropertyListWriter.encodedSize(of: .dictionary(contents)))
	}

	/// The keys whose values differ between two snapshots (added, changed or removed).
	package static func changedKeys(from old: [String: PropertyListValue], to new: [String: PropertyListValue]) -> Set<String> {
		var keys = Set(new.keys.filter { old[$0] != new[$0] })
		keys.formUnion(old.keys.filter { new[$0] == nil })
		return keys
	}
}
