import Foundation

/**
Reads a binary property list (`bplist00`) into a ``PropertyListValue``.

Foundation's reader on Linux hands every `Data` over to Swift byte by byte
through NSData bridging (1.3 s for a 20 MB suite in a release build, in every
process that reads the file, and under the suite's inter-process lock when a
flush finds that another process wrote it). This one copies `Data` in bulk. It is pure, and it checks every offset,
count and reference against the bytes it was given.

It reads what the library and Foundation write, as Foundation reads it, and it
is the only reader of binary property lists (see ``PropertyListValue/parse(_:)``):
any other content — another format or version, kinds a suite never holds (UIDs,
null, sets, fill), a 128-bit integer beyond `UInt64`, an ASCII string with a
byte above 127, invalid UTF-16, a repeated key, a cycle, nesting deeper than
``maximumDepth``, an empty UTF-16 string — gives `nil`: the bytes hold nothing
the library takes, and are never handed to Foundation, whose parser crashes on
some of them.
*/
enum BinaryPropertyListReader {
	/// Deeper nesting is refused: the library never writes it (a write nesting deeper than ``maximumValueNesting`` is refused), and the reader recurses once per level.
	static let maximumDepth = 128

	/// The deepest nesting of one setting's value that still reads back: a file's top dictionary holds it one level down.
	static let maximumValueNesting = maximumDepth - 2

	/// The value, or `nil` when these bytes are not a binary property list this reader takes (see the type's description).
	static func decode(_ data: Data) -> PropertyListValue? {
		data.withUnsafeBytes { bytes in
			guard var parser = Parser(bytes) else {
				return nil
			}

			return parser.object(at: parser.topObject, depth: 0)
		}
	}

	/**
	The top dictionary of these bytes, each value made into a `Value` as it is
	read: a suite's file goes straight into the table its reads use, without a
	table of ``PropertyListValue``s that lives only to be copied (at 10,000
	names, 650 KB of a process's peak). `nil` as for ``decode(_:)``, or when
	the top object is not a dictionary.
	*/
	static func decodeDictionary<Value>(_ data: Data, _ transform: (PropertyListValue) -> Value) -> [String: Value]? {
		data.withUnsafeBytes { bytes in
			guard var parser = Parser(bytes) else {
				return nil
			}

			return parser.topDictionary(transform)
		}
	}

	private struct Parser {
		let bytes: UnsafeRawBufferPointer
		let offsetSize: Int
		let referenceSize: Int
		let objectCount: Int
		let topObject: Int
		let offsetTableOffset: Int
		/**
		How many references to each object the containers hold, up to 2: only
		an object referenced twice (Foundation shares equal values) is kept once
		read, so it is read once and its storage shared. Keeping every object
		read, with a table of where each starts and of their sizes, cost a
		10,000-name suite's load 800 KB of peak memory, more than the file.
		*/
		private var referenceCounts: [UInt8]
		/// Each object referenced twice and read so far, with how many values the tree holds under it (shared objects counted at each place).
		private var shared: [Int: (value: PropertyListValue, size: Int)] = [:]
		/// How many values the tree holds once shared objects are counted at each place they appear.
		private var expanded = 0
		/// A file whose shared objects multiply past this (a few bytes nesting references to references) is refused.
		private let expansionLimit: Int
		/// The containers being read, to refuse a cycle.
		private var isOpen: [Bool]

		init?(_ bytes: UnsafeRawBufferPointer) {
			let magic = BinaryPropertyListFormat.magic
			let trailerSize = BinaryPropertyListFormat.trailerSize
			guard bytes.count >= magic.count + 1 + trailerSize, bytes.prefix(magic.count).elementsEqual(magic) else {
				return nil
			}

			let trailer = bytes.count - trailerSize
			self.bytes = bytes
			offsetSize = Int(bytes[trailer + 6])
			referenceSize = Int(bytes[trailer + 7])
			guard
				(1...8).contains(offsetSize), (1...8).contains(referenceSize),
				let objectCount = Self.bigEndianInt(bytes, at: trailer + 8, width: 8),
				let topObject = Self.bigEndianInt(bytes, at: trailer + 16, width: 8),
				let offsetTableOffset = Self.bigEndianInt(bytes, at: trailer + 24, width: 8),
				objectCount >= 1, objectCount <= trailer, topObject < objectCount,
				offsetTableOffset >= magic.count + 1, offsetTableOffset <= trailer,
				// As CoreFoundation checks: the offset table fills the space up to the trailer, and each width holds what it must.
				objectCount * offsetSize == trailer - offsetTableOffset,
				BinaryPropertyListFormat.width(toHold: objectCount) <= referenceSize,
				BinaryPropertyListFormat.width(toHold: offsetTableOffset) <= offsetSize
			else {
				return nil
			}

			self.objectCount = objectCount
			self.topObject = topObject
			self.offsetTableOffset = offsetTableOffset
			// As CoreFoundation checks: every object starts within the objects, whether it is referenced or not.
			for index in 0..<objectCount {
				guard let offset = Self.bigEndianInt(bytes, at: offsetTableOffset + index * offsetSize, width: offsetSize), offset >= magic.count, offset < offsetTableOffset else {
					return nil
				}
			}

			expansionLimit = max(objectCount * 64, 1 << 20)
			isOpen = Array(repeating: false, count: objectCount)
			// Counted once every other field is set: the count reads the objects' headers as the parser does.
			referenceCounts = []
			referenceCounts = countReferences()
		}

		/// Where object `index` starts: checked to be within the objects when the parser was made.
		private func offset(of index: Int) -> Int {
			Self.bigEndianInt(bytes, at: offsetTableOffset + index * offsetSize, width: offsetSize) ?? 0
		}

		/**
		Counts the references each container holds, up to 2 an object. Objects
		may overlap, so containers may repeat references without end: past as
		many references as the file has bytes, every object counts as shared.
		*/
		private func countReferences() -> [UInt8] {
			var counts = [UInt8](repeating: 0, count: objectCount)
			var budget = bytes.count
			for index in 0..<objectCount {
				let start = offset(of: index)
				let kind = bytes[start] & 0xF0
				guard kind == BinaryPropertyListFormat.Marker.array || kind == BinaryPropertyListFormat.Marker.dictionary else {
					continue
				}

				// A container that does not read is refused when it is reached: nothing to count.
				let references = kind == BinaryPropertyListFormat.Marker.array ? 1 : 2
				// `count` times the bytes of its references: a count may be any `Int`, and doubling it can overflow.
				guard let (payload, count) = header(at: start), payload.addingWithinFile(count, times: references * referenceSize, limit: offsetTableOffset) != nil else {
					continue
				}

				budget -= references * count
				guard budget >= 0 else {
					return [UInt8](repeating: 2, count: objectCount)
				}

				for position in 0..<(references * count) {
					if let object = reference(at: payload + position * referenceSize), counts[object] < 2 {
						counts[object] += 1
					}
				}
			}

			return counts
		}

		mutating func object(at index: Int, depth: Int) -> PropertyListValue? {
			if referenceCounts[index] > 1, let (value, size) = shared[index] {
				expanded += size
				return expanded <= expansionLimit ? value : nil
			}

			guard !isOpen[index], depth < BinaryPropertyListReader.maximumDepth else {
				return nil
			}

			let before = expanded
			expanded += 1
			isOpen[index] = true
			defer { isOpen[index] = false }
			let value = object(startingAt: offset(of: index), depth: depth)
			if referenceCounts[index] > 1, let value {
				shared[index] = (value, expanded - before)
			}

			return expanded <= expansionLimit ? value : nil
		}

		/// The top object, read as ``object(at:depth:)`` reads any, when it is a dictionary.
		mutating func topDictionary<Value>(_ transform: (PropertyListValue) -> Value) -> [String: Value]? {
			expanded += 1
			// A value referring back to the top is a cycle.
			isOpen[topObject] = true
			defer { isOpen[topObject] = false }
			return dictionary(startingAt: offset(of: topObject), depth: 0, transform)
		}

		private mutating func object(startingAt start: Int, depth: Int) -> PropertyListValue? {
			typealias Marker = BinaryPropertyListFormat.Marker
			let marker = bytes[start]
			let low = Int(marker & 0x0F)
			switch marker & 0xF0 {
			case 0x00:
				switch marker {
				case Marker.false:
					return .bool(false)
				case Marker.true:
					return .bool(true)
				default:
					return nil
				}
			case Marker.integer:
				return integer(at: start)?.value
			case Marker.real:
				switch low {
				case 2:
					// Foundation reads an infinite `Float` as a `Double`, and any NaN as the one NaN.
					return Self.bigEndianUInt(bytes, at: start + 1, width: 4, end: offsetTableOffset).map { bits in
						let float = Float(bitPattern: UInt32(bits))
						return float.isNaN ? .double(.nan) : float.isInfinite ? .double(Double(float)) : .float(float)
					}
				case 3:
					return Self.bigEndianUInt(bytes, at: start + 1, width: 8, end: offsetTableOffset).map { bits in
						let double = Double(bitPattern: bits)
						return .double(double.isNaN ? .nan : double)
					}
				default:
					return nil
				}
			case Marker.date & 0xF0:
				guard marker == Marker.date, let bits = Self.bigEndianUInt(bytes, at: start + 1, width: 8, end: offsetTableOffset) else {
					return nil
				}

				return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits)))
			case Marker.data:
				guard let (payload, count) = header(at: start), let base = bytes.baseAddress, payload <= offsetTableOffset - count else {
					return nil
				}

				return .data(Data(bytes: base + payload, count: count))
			case Marker.asciiString, Marker.utf16String:
				return string(at: start).map(PropertyListValue.string)
			case Marker.array:
				guard let (references, count) = header(at: start), references.addingWithinFile(count, times: referenceSize, limit: offsetTableOffset) != nil else {
					return nil
				}

				var elements: [PropertyListValue] = []
				elements.reserveCapacity(count)
				for position in 0..<count {
					guard let element = reference(at: references + position * referenceSize).flatMap({ object(at: $0, depth: depth + 1) }) else {
						return nil
					}

					elements.append(element)
				}

				return .array(elements)
			case Marker.dictionary:
				return dictionary(startingAt: start, depth: depth) { $0 }.map(PropertyListValue.dictionary)
			default:
				return nil
			}
		}

		/// The dictionary object at `start`, each value made into a `Value`; `nil` when it is not one this reader takes.
		private mutating func dictionary<Value>(startingAt start: Int, depth: Int, _ transform: (PropertyListValue) -> Value) -> [String: Value]? {
			guard
				bytes[start] & 0xF0 == BinaryPropertyListFormat.Marker.dictionary,
				let (references, count) = header(at: start),
				references.addingWithinFile(count, times: 2 * referenceSize, limit: offsetTableOffset) != nil
			else {
				return nil
			}

			var entries: [String: Value] = [:]
			entries.reserveCapacity(count)
			for position in 0..<count {
				guard
					case .string(let key)? = reference(at: references + position * referenceSize).flatMap({ object(at: $0, depth: depth + 1) }),
					let entry = reference(at: references + (count + position) * referenceSize).flatMap({ object(at: $0, depth: depth + 1) }),
					entries.updateValue(transform(entry), forKey: key) == nil
				else {
					return nil
				}
			}

			return entries
		}

		/// An integer object as Foundation reads it: 1, 2 and 4 bytes unsigned, 8 signed, 16 only with a zero upper half; with where it ends.
		private func integer(at start: Int) -> (value: PropertyListValue, end: Int)? {
			let marker = bytes[start]
			guard marker & 0xF0 == BinaryPropertyListFormat.Marker.integer else {
				return nil
			}

			switch marker & 0x0F {
			case 0, 1, 2:
				let width = 1 << Int(marker & 0x0F)
				return Self.bigEndianUInt(bytes, at: start + 1, width: width, end: offsetTableOffset).map { (.integer(Int($0)), start + 1 + width) }
			case 3:
				return Self.bigEndianUInt(bytes, at: start + 1, width: 8, end: offsetTableOffset).map { (.integer(Int(Int64(bitPattern: $0))), start + 9) }
			case 4:
				guard
					Self.bigEndianUInt(bytes, at: start + 1, width: 8, end: offsetTableOffset) == 0,
					let low = Self.bigEndianUInt(bytes, at: start + 9, width: 8, end: offsetTableOffset)
				else {
					return nil
				}

				return (Int(exactly: low).map(PropertyListValue.integer) ?? .unsignedInteger(low), start + 17)
			default:
				return nil
			}
		}

		/// Where an object's payload starts, and its count: the marker's low nibble, or the integer object after it.
		private func header(at start: Int) -> (payload: Int, count: Int)? {
			let low = Int(bytes[start] & 0x0F)
			guard low == Int(BinaryPropertyListFormat.Marker.countFollows) else {
				return (start + 1, low)
			}

			guard start + 1 < offsetTableOffset, bytes[start + 1] & 0x0F <= 3, case (.integer(let count), let end)? = integer(at: start + 1), count >= 0 else {
				return nil
			}

			return (end, count)
		}

		private func string(at start: Int) -> String? {
			guard let (payload, count) = header(at: start), let base = bytes.baseAddress else {
				return nil
			}

			if bytes[start] & 0xF0 == BinaryPropertyListFormat.Marker.asciiString {
				guard payload <= offsetTableOffset - count else {
					return nil
				}

				let characters = UnsafeRawBufferPointer(start: base + payload, count: count)
				guard characters.allSatisfy({ $0 < 0x80 }) else {
					return nil
				}

				return String(decoding: characters, as: UTF8.self)
			}

			// Foundation refuses an empty UTF-16 string.
			guard count > 0, count <= (offsetTableOffset - payload) / 2 else {
				return nil
			}

			let units = (0..<count).lazy.map { UInt16(self.bytes[payload + 2 * $0]) << 8 | UInt16(self.bytes[payload + 2 * $0 + 1]) }
			return String(validating: units, as: UTF16.self)
		}

		private func reference(at position: Int) -> Int? {
			Self.bigEndianInt(bytes, at: position, width: referenceSize).flatMap { $0 < objectCount ? $0 : nil }
		}

		/// The `width` bytes at `position`, which must end by `end`, most significant first.
		static func bigEndianUInt(_ bytes: UnsafeRawBufferPointer, at position: Int, width: Int, end: Int) -> UInt64? {
			guard position >= 0, position <= end - width, end <= bytes.count else {
				return nil
			}

			var value: UInt64 = 0
			for offset in position..<(position + width) {
				value = value << 8 | UInt64(bytes[offset])
			}

			return value
		}

		/// As ``bigEndianUInt(_:at:width:end:)``, within all of `bytes`, as an `Int` (`nil` when it does not fit).
		static func bigEndianInt(_ bytes: UnsafeRawBufferPointer, at position: Int, width: Int) -> Int? {
			bigEndianUInt(bytes, at: position, width: width, end: bytes.count).flatMap { Int(exactly: $0) }
		}
	}
}

extension Int {
	/// `self + count × size` when it does not pass `limit` (nor overflow), else `nil`.
	fileprivate func addingWithinFile(_ count: Int, times size: Int, limit: Int) -> Int? {
		let (length, overflow) = count.multipliedReportingOverflow(by: size)
		guard !overflow, length <= limit - self else {
			return nil
		}

		return self + length
	}
}
