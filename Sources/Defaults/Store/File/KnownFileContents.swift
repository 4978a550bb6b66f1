import Foundation

/**
A suite's file as this process last read or wrote it: what a flush merges
onto and what another process's change is compared with.

A process that only reads a suite never needs it as values until another
process changes the file, so the contents first read are kept as the file's
bytes (253 KB against a table's 657 KB at 10,000 names), decoded when
another process changes the file, and kept as bytes again. A process that
writes keeps them as values from its first write on: each flush uses them.

<!-- check: internal -->
```swift
let known = KnownFileContents(bytes: data)
let contents = known.values // decoded from the bytes
```
*/
struct KnownFileContents {
	private enum Form {
		case values([String: PropertyListValue])
		/// Bytes that decoded as a property-list dictionary when they were read.
		case bytes(Data)
	}

	private var form: Form

	init(_ values: [String: PropertyListValue] = [:]) {
		form = .values(values)
	}

	/// Contents known as the bytes they were read from, which decoded then: the same reader decodes them again.
	init(bytes: Data) {
		form = .bytes(bytes)
	}

	/// The contents as values: decoded again from the bytes each time when kept as bytes.
	var values: [String: PropertyListValue] {
		switch form {
		case .values(let values):
			return values
		case .bytes(let data):
			guard case .contents(let values) = PropertyListFileContents.decode(data) else {
				// The same bytes decoded when they were read, and decoding is a function of the bytes.
				assertionFailure("bytes that decoded once no longer do")
				return [:]
			}

			return values
		}
	}

	/// The contents as values, kept so from now on: what a process that writes asks, at each flush.
	mutating func keepAsValues() -> [String: PropertyListValue] {
		let values = values
		form = .values(values)
		return values
	}

	/**
	Takes the file as read again after another process changed it: kept in
	the form it had, so a process that only reads keeps the bytes.
	*/
	mutating func replace(with values: [String: PropertyListValue], readFrom data: Data?) {
		if case .bytes = form, let data {
			form = .bytes(data)
		} else {
			form = .values(values)
		}
	}
}
