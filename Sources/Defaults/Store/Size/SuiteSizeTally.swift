import Foundation

/**
The exact size of the binary property list a suite's stored values make (its
file on Linux), kept entry by entry: a change costs a walk of the new value
and a lookup, whatever the size of the suite, and the total is never
estimated.

Pure: no I/O, no locks; its owner keeps it in step with the values.
*/
struct SuiteSizeTally: Sendable {
	typealias Shape = BinaryPropertyListWriter.EntryShape

	private(set) var shapes: [String: Shape] = [:]
	private var sum = Shape()

	init(_ contents: [String: PropertyListValue] = [:]) {
		shapes.reserveCapacity(contents.count)
		for (name, value) in contents {
			let shape = BinaryPropertyListWriter.shape(ofEntry: name, value: value)
			shapes[name] = shape
			sum = sum + shape
		}
	}

	/// The file's size in bytes.
	var size: Int64 {
		Int64(BinaryPropertyListWriter.dictionarySize(entryCount: shapes.count, entries: sum))
	}

	/// The shape `name` would have holding `value` (`nil`: none, it is removed).
	static func shape(of name: String, _ value: PropertyListValue?) -> Shape? {
		value.map { BinaryPropertyListWriter.shape(ofEntry: name, value: $0) }
	}

	/// What the file and `name`'s entry in it would be if `name` had the shape `new`, nothing changed.
	func prospect(_ name: String, _ new: Shape?) -> (size: Int64, entry: Int64) {
		let old = shapes[name]
		let count = shapes.count + (new == nil ? 0 : 1) - (old == nil ? 0 : 1)
		let total = sum - (old ?? Shape()) + (new ?? Shape())
		let size = BinaryPropertyListWriter.dictionarySize(entryCount: count, entries: total)
		let entry = new.map { BinaryPropertyListWriter.size(of: $0, inDictionaryOf: count, entries: total) } ?? 0
		return (Int64(size), Int64(entry))
	}

	mutating func set(_ name: String, _ new: Shape?) {
		let old = new.map { shapes.updateValue($0, forKey: name) } ?? shapes.removeValue(forKey: name)
		sum = sum - (old ?? Shape()) + (new ?? Shape())
	}

	mutating func set(_ name: String, to value: PropertyListValue?) {
		set(name, Self.shape(of: name, value))
	}

	/// What each entry takes in the file, largest first (then by name); with the file's fixed part (header, top dictionary, trailer), they add up to ``size``.
	var entries: [(name: String, bytes: Int64)] {
		shapes
			.map { (name: $0.key, bytes: Int64(BinaryPropertyListWriter.size(of: $0.value, inDictionaryOf: shapes.count, entries: sum))) }
			.sorted { $0.bytes != $1.bytes ? $0.bytes > $1.bytes : $0.name < $1.name }
	}
}
