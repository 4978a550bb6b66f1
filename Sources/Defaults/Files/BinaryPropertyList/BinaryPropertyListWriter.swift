import Foundation

/**
Writes a ``PropertyListValue`` as a binary property list (`bplist00`), the
format of a suite's file, into one buffer sized before anything is written.

Foundation's encoder on Linux walks every `Data` byte by byte through NSData
bridging (2.5 s for a 20 MB suite in a release build, at every flush); this
one copies `Data` and ASCII strings in bulk. It is pure: no I/O, no locks.

Objects are written children first, so every reference points at an object
already written and the top object is the last one. Dictionary keys are
written in sorted order, so equal contents give equal bytes. Equal values are
not shared: each occurrence is an object of its own, which the format allows.
*/
enum BinaryPropertyListWriter {
	/// The bytes of a binary property list whose top object is `value`.
	static func encode(_ value: PropertyListValue) -> Data {
		encode(value, sizeLimit: .max).data!
	}

	/// The bytes of `value`, or none when they would pass `sizeLimit`; with their count, measured once for both.
	static func encode(_ value: PropertyListValue, sizeLimit: Int) -> (data: Data?, size: Int) {
		var layout = Layout()
		layout.add(value)
		guard layout.totalSize <= sizeLimit else {
			return (nil, layout.totalSize)
		}

		var output = Output(layout: layout)
		let top = output.write(value)
		return (output.finish(top: top), layout.totalSize)
	}

	/// How many bytes ``encode(_:)`` returns for `value`, without writing them: a walk of the tree, no copy of its data.
	static func encodedSize(of value: PropertyListValue) -> Int {
		var layout = Layout()
		layout.add(value)
		return layout.totalSize
	}

	/**
	What one entry of a top dictionary brings to a file: the objects of its
	name and value, their bytes, and the references to them (the top
	dictionary's two among them). Objects are never shared, so a file's shape
	is the sum of its entries' shapes, and ``dictionarySize(entryCount:entries:)``
	turns that sum into the file's exact size. A walk of the value, nothing
	allocated: cheap enough for every write.
	*/
	static func shape(ofEntry name: String, value: PropertyListValue) -> EntryShape {
		var layout = Layout()
		layout.addString(name)
		layout.add(value)
		// The name's object, and the top dictionary's references to the name and the value.
		return EntryShape(objectCount: layout.objectCount + 1, objectBytes: layout.objectBytes, referenceCount: layout.referenceCount + 2)
	}

	/// The exact size ``encode(_:)`` gives a dictionary of `entryCount` entries whose shapes add up to `entries`.
	static func dictionarySize(entryCount: Int, entries: EntryShape) -> Int {
		dictionaryLayout(entryCount: entryCount, entries: entries).totalSize
	}

	/// What an entry of shape `entry` takes in the file of such a dictionary: its objects, their references and their offsets at the file's widths.
	static func size(of entry: EntryShape, inDictionaryOf entryCount: Int, entries: EntryShape) -> Int {
		let layout = dictionaryLayout(entryCount: entryCount, entries: entries)
		return entry.objectBytes + entry.referenceCount * layout.referenceSize + entry.objectCount * layout.offsetSize
	}

	private static func dictionaryLayout(entryCount: Int, entries: EntryShape) -> Layout {
		// The top dictionary's own object: its header (its references are counted in its entries').
		Layout(
			objectCount: entries.objectCount + 1,
			objectBytes: entries.objectBytes + Output.headerSize(count: entryCount),
			referenceCount: entries.referenceCount
		)
	}

	/// The objects, bytes and references one entry of a top dictionary adds to its file (see ``shape(ofEntry:value:)``).
	struct EntryShape: Sendable, Hashable {
		var objectCount = 0
		/// The objects' bytes, their references left out.
		var objectBytes = 0
		var referenceCount = 0

		static func + (left: Self, right: Self) -> Self {
			Self(objectCount: left.objectCount + right.objectCount, objectBytes: left.objectBytes + right.objectBytes, referenceCount: left.referenceCount + right.referenceCount)
		}

		static func - (left: Self, right: Self) -> Self {
			Self(objectCount: left.objectCount - right.objectCount, objectBytes: left.objectBytes - right.objectBytes, referenceCount: left.referenceCount - right.referenceCount)
		}
	}

	/// The file's shape, measured before writing: the count of objects and the bytes they take, which decide the width of references and offsets.
	private struct Layout {
		var objectCount = 0
		/// The objects' bytes, their references left out.
		var objectBytes = 0
		var referenceCount = 0

		var referenceSize: Int {
			BinaryPropertyListFormat.width(toHold: objectCount)
		}

		var offsetTableOffset: Int {
			BinaryPropertyListFormat.magic.count + objectBytes + referenceCount * referenceSize
		}

		var offsetSize: Int {
			BinaryPropertyListFormat.width(toHold: offsetTableOffset)
		}

		var totalSize: Int {
			offsetTableOffset + objectCount * offsetSize + BinaryPropertyListFormat.trailerSize
		}

		mutating func add(_ value: PropertyListValue) {
			objectCount += 1
			switch value {
			case .bool:
				objectBytes += 1
			case .integer(let integer):
				objectBytes += 1 + Output.integerWidth(integer)
			case .unsignedInteger(let integer):
				objectBytes += 1 + (Int(exactly: integer).map(Output.integerWidth) ?? 16)
			case .float:
				objectBytes += 1 + 4
			case .double, .date:
				objectBytes += 1 + 8
			case .data(let data):
				objectBytes += Output.headerSize(count: data.count) + data.count
			case .string(let string):
				addString(string)
			case .array(let elements):
				objectBytes += Output.headerSize(count: elements.count)
				referenceCount += elements.count
				for element in elements {
					add(element)
				}
			case .dictionary(let entries):
				objectBytes += Output.headerSize(count: entries.count)
				referenceCount += 2 * entries.count
				for (key, entry) in entries {
					objectCount += 1
					addString(key)
					add(entry)
				}
			}
		}

		mutating func addString(_ string: String) {
			if let ascii = Output.asciiCount(string) {
				objectBytes += Output.headerSize(count: ascii) + ascii
			} else {
				let units = string.utf16.count
				objectBytes += Output.headerSize(count: units) + 2 * units
			}
		}
	}

	/**
	The file's bytes, in memory allocated once at the size the layout measured
	and handed to the `Data` without a copy: a large suite is copied once,
	straight from its values.
	*/
	private struct Buffer {
		private let storage: UnsafeMutableRawBufferPointer
		private(set) var count = 0

		init(size: Int) {
			storage = .allocate(byteCount: size, alignment: 1)
		}

		mutating func append(_ byte: UInt8) {
			precondition(count < storage.count, "the layout measured a smaller file")
			storage[count] = byte
			count += 1
		}

		mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
			guard let source = bytes.baseAddress, !bytes.isEmpty else {
				return
			}

			precondition(bytes.count <= storage.count - count, "the layout measured a smaller file")
			(storage.baseAddress! + count).copyMemory(from: source, byteCount: bytes.count)
			count += bytes.count
		}

		mutating func append(contentsOf bytes: [UInt8]) {
			bytes.withUnsafeBytes { append(contentsOf: $0) }
		}

		mutating func append(utf8 string: String) {
			var string = string
			string.withUTF8 { append(contentsOf: UnsafeRawBufferPointer($0)) }
		}

		/// The bytes, once all are written; the buffer must not be used after.
		consuming func data() -> Data {
			precondition(count == storage.count, "the layout measured a larger file")
			return Data(bytesNoCopy: storage.baseAddress!, count: count, deallocator: .custom { pointer, _ in pointer.deallocate() })
		}
	}

	/// The file being written, and where each object starts.
	private struct Output {
		let layout: Layout
		var bytes: Buffer
		var offsets: [Int] = []

		init(layout: Layout) {
			self.layout = layout
			bytes = Buffer(size: layout.totalSize)
			offsets.reserveCapacity(layout.objectCount)
			bytes.append(contentsOf: BinaryPropertyListFormat.magic)
		}

		/// Writes `value` and the objects it holds; returns its index.
		mutating func write(_ value: PropertyListValue) -> Int {
			switch value {
			case .array(let elements):
				var references: [Int] = []
				references.reserveCapacity(elements.count)
				for element in elements {
					references.append(write(element))
				}

				let index = beginObject()
				appendHeader(BinaryPropertyListFormat.Marker.array, count: elements.count)
				for reference in references {
					appendReference(reference)
				}

				return index
			case .dictionary(let entries):
				// The names alone are sorted, and each value looked up: moving whole entries costs more than the lookups (a third of a flush, unoptimised).
				var keys: [Int] = []
				var values: [Int] = []
				keys.reserveCapacity(entries.count)
				values.reserveCapacity(entries.count)
				for key in entries.keys.sorted() {
					keys.append(writeString(key))
					values.append(write(entries[key]!))
				}

				let index = beginObject()
				appendHeader(BinaryPropertyListFormat.Marker.dictionary, count: entries.count)
				for reference in keys {
					appendReference(reference)
				}

				for reference in values {
					appendReference(reference)
				}

				return index
			case .string(let string):
				return writeString(string)
			default:
				let index = beginObject()
				appendScalar(value)
				return index
			}
		}

		/// Appends the offset table and the trailer; returns the file's bytes.
		consuming func finish(top: Int) -> Data {
			let offsetTableOffset = bytes.count
			precondition(offsetTableOffset == layout.offsetTableOffset && offsets.count == layout.objectCount, "the layout measured a different file")
			for offset in offsets {
				appendBigEndian(UInt64(offset), width: layout.offsetSize)
			}

			for _ in 0..<6 {
				bytes.append(0)
			}

			bytes.append(UInt8(layout.offsetSize))
			bytes.append(UInt8(layout.referenceSize))
			appendBigEndian(UInt64(offsets.count), width: 8)
			appendBigEndian(UInt64(top), width: 8)
			appendBigEndian(UInt64(offsetTableOffset), width: 8)
			return bytes.data()
		}

		private mutating func beginObject() -> Int {
			offsets.append(bytes.count)
			return offsets.count - 1
		}

		private mutating func appendScalar(_ value: PropertyListValue) {
			typealias Marker = BinaryPropertyListFormat.Marker
			switch value {
			case .bool(let bool):
				bytes.append(bool ? Marker.true : Marker.false)
			case .integer(let integer):
				appendInteger(integer)
			case .unsignedInteger(let integer):
				if let integer = Int(exactly: integer) {
					appendInteger(integer)
				} else {
					// Beyond Int64: a 128-bit integer, as Foundation and Python write it; its upper half is zero.
					bytes.append(Marker.integer | 4)
					appendBigEndian(0, width: 8)
					appendBigEndian(integer, width: 8)
				}
			case .float(let float):
				bytes.append(Marker.real | 2)
				appendBigEndian(UInt64(float.bitPattern), width: 4)
			case .double(let double):
				bytes.append(Marker.real | 3)
				appendBigEndian(double.bitPattern, width: 8)
			case .date(let date):
				bytes.append(Marker.date)
				appendBigEndian(date.timeIntervalSinceReferenceDate.bitPattern, width: 8)
			case .data(let data):
				appendHeader(Marker.data, count: data.count)
				data.withUnsafeBytes { bytes.append(contentsOf: $0) }
			case .string, .array, .dictionary:
				preconditionFailure("not a scalar: \(value)")
			}
		}

		private mutating func writeString(_ string: String) -> Int {
			let index = beginObject()
			if let ascii = Self.asciiCount(string) {
				appendHeader(BinaryPropertyListFormat.Marker.asciiString, count: ascii)
				bytes.append(utf8: string)
			} else {
				appendHeader(BinaryPropertyListFormat.Marker.utf16String, count: string.utf16.count)
				for unit in string.utf16 {
					bytes.append(UInt8(truncatingIfNeeded: unit >> 8))
					bytes.append(UInt8(truncatingIfNeeded: unit))
				}
			}

			return index
		}

		/// An integer object: the fewest of 1, 2 and 4 bytes (read as unsigned) that hold it, else 8 (signed, as every negative value is).
		private mutating func appendInteger(_ integer: Int) {
			let width = Self.integerWidth(integer)
			bytes.append(BinaryPropertyListFormat.Marker.integer | UInt8(width.trailingZeroBitCount))
			appendBigEndian(UInt64(bitPattern: Int64(integer)), width: width)
		}

		private mutating func appendHeader(_ marker: UInt8, count: Int) {
			if count < Int(BinaryPropertyListFormat.Marker.countFollows) {
				bytes.append(marker | UInt8(count))
			} else {
				bytes.append(marker | BinaryPropertyListFormat.Marker.countFollows)
				appendInteger(count)
			}
		}

		private mutating func appendReference(_ index: Int) {
			appendBigEndian(UInt64(index), width: layout.referenceSize)
		}

		/// The low `width` bytes of `value`, most significant first.
		private mutating func appendBigEndian(_ value: UInt64, width: Int) {
			var shift = (width - 1) * 8
			while shift >= 0 {
				bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
				shift -= 8
			}
		}

		static func integerWidth(_ integer: Int) -> Int {
			switch integer {
			case 0...0xFF:
				1
			case 0...0xFFFF:
				2
			case 0...0xFFFF_FFFF:
				4
			default:
				8
			}
		}

		static func headerSize(count: Int) -> Int {
			count < Int(BinaryPropertyListFormat.Marker.countFollows) ? 1 : 2 + integerWidth(count)
		}

		/// The string's length when it is all ASCII (written a byte per character), else `nil` (written as UTF-16).
		static func asciiCount(_ string: String) -> Int? {
			let utf8 = string.utf8
			let isASCII = utf8.withContiguousStorageIfAvailable { Self.isASCII(UnsafeRawBufferPointer($0)) } ?? utf8.allSatisfy { $0 < 0x80 }
			return isASCII ? utf8.count : nil
		}

		/// Eight bytes at a time: every name and string of a suite is checked at each write of its file, in unoptimised builds too.
		private static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
			var offset = 0
			while offset + 8 <= bytes.count {
				if bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
					return false
				}
				offset += 8
			}

			while offset < bytes.count {
				if bytes[offset] >= 0x80 {
					return false
				}
				offset += 1
			}

			return true
		}
	}
}
