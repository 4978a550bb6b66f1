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
	private var sum = Shape() {
		didSet { size = Self.size(entryCount: shapes.count, entries: sum) }
	}

	/// The file's size in bytes, kept with `sum`: every write's admission compares against it.
	private(set) var size: Int64 = Self.size(entryCount: 0, entries: Shape())

	init(_ contents: [String: PropertyListValue] = [:]) {
		shapes.reserveCapacity(contents.count)
		var sum = Shape()
		for (name, value) in contents {
			let shape = BinaryPropertyListWriter.shape(ofEntry: name, value: value)
			shapes[name] = shape
			sum = sum + shape
		}

		self.sum = sum
		size = Self.size(entryCount: shapes.count, entries: sum)
	}

	private static func size(entryCount: Int, entries: Shape) -> Int64 {
		Int64(BinaryPropertyListWriter.dictionarySize(entryCount: entryCount, entries: entries))
	}

	/// The shape `name` would have holding `value` (`nil`: none, it is removed).
	static func shape(of name: String, _ value: PropertyListValue?) -> Shape? {
		value.map { BinaryPropertyListWriter.shape(ofEntry: name, value: $0) }
	}

	/// A change of one entry, measured before it is made: the file's size before and after, and what the entry would take.
	struct Prospect {
		/// Where the entry is: found once, so a write hashes its name once.
		fileprivate let index: Dictionary<String, Shape>.Index?
		fileprivate let new: Shape?
		let current: Int64
		let size: Int64
		let entry: Int64
	}

	/// What the file and `name`'s entry in it would be if `name` had the shape `new`, nothing changed.
	func prospect(_ name: String, _ new: Shape?) -> Prospect {
		let index = shapes.index(forKey: name)
		let current = size
		guard index != nil || new != nil else {
			// Removing what is not there (setting an absent optional to nil): nothing changes.
			return Prospect(index: nil, new: nil, current: current, size: current, entry: 0)
		}

		let old = index.map { shapes.values[$0] }
		if old == new {
			// The most common write, a value replaced by one of the same shape (a number of the same width, a flag): the file keeps its size.
			return Prospect(index: index, new: new, current: current, size: current, entry: 0)
		}

		let count = shapes.count + (new == nil ? 0 : 1) - (old == nil ? 0 : 1)
		let total = sum - (old ?? Shape()) + (new ?? Shape())
		let size = BinaryPropertyListWriter.dictionarySize(entryCount: count, entries: total)
		let entry = new.map { BinaryPropertyListWriter.size(of: $0, inDictionaryOf: count, entries: total) } ?? 0
		return Prospect(index: index, new: new, current: current, size: Int64(size), entry: Int64(entry))
	}

	/// Makes the change `prospect` measured of `name`; nothing may have changed since.
	mutating func apply(_ prospect: Prospect, to name: String) {
		let old: Shape?
		switch (prospect.index, prospect.new) {
		case (let index?, let new?) where shapes.values[index] == new:
			return
		case (let index?, let new?):
			old = shapes.values[index]
			shapes.values[index] = new
		case (let index?, nil):
			old = shapes.remove(at: index).value
		case (nil, let new?):
			old = nil
			shapes[name] = new
		case (nil, nil):
			return
		}

		sum = sum - (old ?? Shape()) + (prospect.new ?? Shape())
	}

	mutating func set(_ name: String, _ new: Shape?) {
		let old = new.map { shapes.updateValue($0, forKey: name) } ?? shapes.removeValue(forKey: name)
		sum = sum - (old ?? Shape()) + (new ?? Shape())
	}

	mutating func set(_ name: String, to value: PropertyListValue?) {
		set(name, Self.shape(of: name, value))
	}

	/// What `name`'s entry takes in the file; `nil` when the suite does not hold it.
	func bytes(ofEntry name: String) -> Int64? {
		shapes[name].map { Int64(BinaryPropertyListWriter.size(of: $0, inDictionaryOf: shapes.count, entries: sum)) }
	}

	/// What each entry takes in the file, largest first (then by name); with the file's fixed part (header, top dictionary, trailer), they add up to ``size``.
	var entries: [(name: String, bytes: Int64)] {
		shapes
			.map { (name: $0.key, bytes: Int64(BinaryPropertyListWriter.size(of: $0.value, inDictionaryOf: shapes.count, entries: sum))) }
			.sorted { $0.bytes != $1.bytes ? $0.bytes > $1.bytes : $0.name < $1.name }
	}
}
