import Defaults
import Foundation

/// Random property-list trees of every kind a suite's file holds, the edges of each kind among them.
package enum PropertyListValueGenerator {
	/// Trial `index` of a run started with `seed`: a dictionary, as a suite's file holds.
	package static func suite(seed: UInt64, index: Int) -> PropertyListValue {
		var random = FuzzRandom(seed: seed, index: index)
		return dictionary(depth: 0, using: &random)
	}

	static let strings = ["", "x", "key", "a longer string than fourteen", "é", "日本語のテキスト", "👍🏽", "\u{0}", "mixed ascii and ü", String(repeating: "z", count: 300)]

	static let integers = [0, 1, -1, 14, 15, 127, 128, 255, 256, 65_535, 65_536, Int(UInt32.max), Int(UInt32.max) + 1, Int.max, Int.min]

	static let doubles = [0.0, -0.0, 0.1, -1.5, 1e300, -1e-300, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude]

	package static func value(depth: Int, using random: inout FuzzRandom) -> PropertyListValue {
		switch random.below(depth < 4 ? 12 : 10) {
		case 0:
			return .bool(random.chance(0.5))
		case 1:
			return .integer(random.chance(0.5) ? integers[random.below(integers.count)] : Int(truncatingIfNeeded: random.next()))
		case 2:
			return .unsignedInteger([UInt64(Int64.max) + 1, UInt64.max, UInt64.max - 1][random.below(3)])
		case 3:
			let float = random.chance(0.5) ? Float(doubles[random.below(doubles.count)]) : Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))
			return .float(float.isNaN ? 0.25 : float)
		case 4:
			let double = random.chance(0.5) ? doubles[random.below(doubles.count)] : Double(bitPattern: random.next())
			// NaN is never equal to itself: the trees are compared.
			return .double(double.isNaN ? 0.25 : double)
		case 5:
			return .date(Date(timeIntervalSinceReferenceDate: Double(Int(random.below(4_000_000_000)) - 2_000_000_000) + Double(random.below(1_000_000)) / 1_000_000))
		case 6:
			let count = [0, 1, 14, 15, 16, 255, 256, 70_000][random.below(8)]
			return .data(Data((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
		case 7, 8, 9:
			return .string(string(using: &random))
		case 10:
			return .array((0..<[0, 1, 3, 15, 20][random.below(5)]).map { _ in value(depth: depth + 1, using: &random) })
		default:
			return dictionary(depth: depth + 1, using: &random)
		}
	}

	private static func dictionary(depth: Int, using random: inout FuzzRandom) -> PropertyListValue {
		var entries: [String: PropertyListValue] = [:]
		for _ in 0..<[0, 1, 4, 16][random.below(4)] {
			entries[string(using: &random)] = value(depth: depth + 1, using: &random)
		}

		return .dictionary(entries)
	}

	private static func string(using random: inout FuzzRandom) -> String {
		random.chance(0.5) ? strings[random.below(strings.count)] : "s\(random.below(10_000))"
	}
}
