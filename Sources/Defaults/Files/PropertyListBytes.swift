import Foundation

extension PropertyListValue {
	/**
	The value that property-list bytes hold, or `nil` when they hold none the
	library takes: the one way every file, import, tool argument and remote
	row is parsed.

	A binary property list is decided by ``BinaryPropertyListReader`` alone.
	Foundation's parser on Linux builds the kinds no setting holds (sets,
	ordered sets, UIDs, null) and then crashes bridging some of them (a
	53-byte file holding a set ends every process that hands it over), so
	such bytes never reach it. XML and the old text format cannot express
	those kinds, and are Foundation's to parse.

	<!-- check: internal -->
	```swift
	let value = PropertyListValue.parse(try Data(contentsOf: file))
	```
	*/
	package static func parse(_ data: Data) -> PropertyListValue? {
		if isBinaryPropertyList(data) {
			return BinaryPropertyListReader.decode(data)
		}

		guard !data.isEmpty, let object = try? PropertyListSerialization.propertyList(from: data, format: nil) else {
			return nil
		}

		return PropertyListValue(object)
	}

	/// Whether `data` claims to be a binary property list, of any version: those bytes are the library's reader's alone.
	static func isBinaryPropertyList(_ data: Data) -> Bool {
		data.starts(with: "bplist".utf8)
	}
}
