import Foundation

/**
Refuses binary property lists holding object types a keyed archive never uses.

`PropertyListSerialization` on Linux parses a binary plist's sets (and ordered
sets, URLs, UUIDs) and then bridges them to Swift; bridging a set of arbitrary
objects can end the process (a null metadata dereference measured once in
10,000 mutated archives). Reading the object table first, without building
any object, keeps such bytes away from the parser. Other formats (XML, text)
cannot express those types and pass.
*/
enum BinaryPropertyListCheck {
	/// `false` if `data` is a binary plist that is malformed or holds a type other than null, booleans, numbers, dates, data, strings, UIDs, arrays and dictionaries.
	static func holdsOnlyArchiveTypes(_ data: Data) -> Bool {
		let bytes = [UInt8](data)
		guard bytes.starts(with: Array("bplist".utf8)) else {
			return true
		}

		guard bytes.starts(with: Array("bplist00".utf8)), bytes.count >= 8 + 32 else {
			return false
		}

		let trailer = bytes.count - 32
		let offsetSize = Int(bytes[trailer + 6])
		guard
			(1...8).contains(offsetSize),
			(1...8).contains(Int(bytes[trailer + 7])),
			let objectCount = integer(bytes, at: trailer + 8, size: 8),
			let tableOffset = integer(bytes, at: trailer + 24, size: 8),
			tableOffset >= 8, tableOffset <= trailer,
			objectCount <= (trailer - tableOffset) / offsetSize
		else {
			return false
		}

		for index in 0..<objectCount {
			guard
				let offset = integer(bytes, at: tableOffset + index * offsetSize, size: offsetSize),
				offset >= 8, offset < tableOffset,
				isArchiveType(marker: bytes[offset])
			else {
				return false
			}
		}

		return true
	}

	private static func isArchiveType(marker: UInt8) -> Bool {
		switch marker >> 4 {
		case 0x0:
			return marker == 0x00 || marker == 0x08 || marker == 0x09
		case 0x3:
			return marker == 0x33
		case 0x1, 0x2, 0x4, 0x5, 0x6, 0x8, 0xA, 0xD:
			return true
		default:
			return false
		}
	}

	/// A big-endian unsigned integer of `size` bytes at `offset`, if it is inside `bytes` and fits in an `Int`.
	private static func integer(_ bytes: [UInt8], at offset: Int, size: Int) -> Int? {
		guard offset >= 0, offset <= bytes.count - size else {
			return nil
		}

		var value: UInt64 = 0
		for byte in bytes[offset..<(offset + size)] {
			value = value << 8 | UInt64(byte)
		}

		return Int(exactly: value).flatMap { $0 <= Int(Int32.max) ? $0 : nil }
	}
}
