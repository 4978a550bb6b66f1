/// Where each object of a well-formed binary property list starts, read from its trailer and offset table: for tests that rewrite objects in place.
public enum BinaryPropertyListOffsets {
	public static func of(_ bytes: [UInt8]) -> [Int] {
		let trailer = bytes.count - 32
		let offsetSize = Int(bytes[trailer + 6])
		func number(at position: Int, width: Int) -> Int {
			bytes[position..<(position + width)].reduce(0) { $0 << 8 | Int($1) }
		}

		let count = number(at: trailer + 8, width: 8)
		let table = number(at: trailer + 24, width: 8)
		return (0..<count).map { number(at: table + $0 * offsetSize, width: offsetSize) }
	}
}
