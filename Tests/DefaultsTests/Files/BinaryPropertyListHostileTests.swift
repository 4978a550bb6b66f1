import Foundation
import Testing
@testable import Defaults

/// Hostile binary property lists against the reader's reference count (adversarial review of cf78043).
@Suite("Binary property lists: hostile counts")
struct BinaryPropertyListHostileTests {
	/**
	A dictionary object nobody references, whose count (2^62, in an 8-byte
	integer) doubles past `Int.max`: the reference count's pre-pass walks
	every object in the offset table, so it reads that header too, and
	`references * count` traps. The reader before cf78043 never reached the
	object and read the top dictionary (empty); a suite file holding such
	bytes crashes every process that loads it.
	*/
	@Test func anUnreferencedDictionaryWithAHugeCountDoesNotCrash() async {
		await #expect(processExitsWith: .success) {
			// Object 0 (the top): an empty dictionary. Object 1: a dictionary whose count follows, 0x4000_0000_0000_0000.
			let objects: [UInt8] = [0xD0] + [0xDF, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0]
			let offsetTable = BinaryPropertyListFormat.magic.count + objects.count
			func bigEndian(_ value: Int) -> [UInt8] {
				(0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
			}

			let file = BinaryPropertyListFormat.magic + objects + [8, 9] + [0, 0, 0, 0, 0, 0, 1, 1] + bigEndian(2) + bigEndian(0) + bigEndian(offsetTable)
			let decoded = BinaryPropertyListReader.decode(Data(file))
			let dictionary = BinaryPropertyListReader.decodeDictionary(Data(file)) { $0 }
			// As before cf78043: the unreferenced object is never read.
			guard decoded == .dictionary([:]), dictionary == [:] else {
				exit(1)
			}
		}
	}

	/// The same count in the top dictionary itself: refused (`nil`), not a trap (before cf78043 too, the dictionary's own check doubled it).
	@Test func aTopDictionaryWithAHugeCountIsRefused() async {
		await #expect(processExitsWith: .success) {
			let objects: [UInt8] = [0xDF, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0]
			let offsetTable = BinaryPropertyListFormat.magic.count + objects.count
			func bigEndian(_ value: Int) -> [UInt8] {
				(0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
			}

			let file = BinaryPropertyListFormat.magic + objects + [8] + [0, 0, 0, 0, 0, 0, 1, 1] + bigEndian(1) + bigEndian(0) + bigEndian(offsetTable)
			guard BinaryPropertyListReader.decode(Data(file)) == nil, BinaryPropertyListReader.decodeDictionary(Data(file), { $0 }) == nil else {
				exit(1)
			}
		}
	}
}
