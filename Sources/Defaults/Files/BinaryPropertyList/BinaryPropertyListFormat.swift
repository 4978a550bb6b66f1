/**
The parts of the binary property-list format (`bplist00`) the library writes
and reads, as Apple's CoreFoundation defines it.

A file is the magic `bplist00`, then the objects, then an offset table (where
each object starts, `offsetSize` bytes each, big-endian), then a 32-byte
trailer: 6 unused bytes, `offsetSize`, `referenceSize`, and three 8-byte
big-endian numbers: the object count, the top object's index and where the
offset table starts.

An object starts with a marker byte: the high nibble is its kind, the low one
its size or count; a count of 15 or more is written as `0xF` followed by an
integer object holding it. Containers hold object indexes (`referenceSize`
bytes each): an array its elements', a dictionary all its keys' and then all
its values'.
*/
enum BinaryPropertyListFormat {
	static let magic: [UInt8] = Array("bplist00".utf8)
	static let trailerSize = 32

	enum Marker {
		static let `false`: UInt8 = 0x08
		static let `true`: UInt8 = 0x09
		/// Followed by 2^n bytes: 1, 2 and 4 bytes are unsigned, 8 signed, 16 a 128-bit signed value.
		static let integer: UInt8 = 0x10
		/// 0x22: a 4-byte `Float`; 0x23: an 8-byte `Double`.
		static let real: UInt8 = 0x20
		/// An 8-byte `Double`: seconds since 2001-01-01 00:00:00 UTC.
		static let date: UInt8 = 0x33
		static let data: UInt8 = 0x40
		static let asciiString: UInt8 = 0x50
		/// UTF-16 code units, big-endian; the count is in units.
		static let utf16String: UInt8 = 0x60
		static let array: UInt8 = 0xA0
		static let dictionary: UInt8 = 0xD0
		/// The low nibble saying an integer object with the count follows.
		static let countFollows: UInt8 = 0x0F
	}

	/**
	The bytes an index or an offset takes: the fewest of 1, 2, 4 and 8 such
	that every value up to `limit` fits. CoreFoundation refuses a file whose
	object count (for references) or offset table's offset (for offsets) does
	not fit in the width it declares, so `limit` is that count or offset itself.
	*/
	static func width(toHold limit: Int) -> Int {
		switch UInt64(limit) {
		case ..<(1 << 8):
			1
		case ..<(1 << 16):
			2
		case ..<(1 << 32):
			4
		default:
			8
		}
	}
}
