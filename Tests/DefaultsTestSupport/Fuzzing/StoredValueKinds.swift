import Defaults
import Foundation

public struct FuzzPoint: Codable, Hashable, Sendable, Defaults.Serializable {
	public var x: Int
	public var label: String
}

public enum FuzzMode: String, Sendable, Defaults.Serializable {
	case light, dark
}

public enum FuzzCodableMode: String, Codable, Sendable, Defaults.Serializable {
	case tenMinutes, hour
}

/**
Every kind of value a key can hold, each able to read a stored object as that
kind. The stored-value fuzz stores random and near-miss property lists under
keys of each kind.
*/
public struct StoredValueKind: Sendable {
	public let name: String
	/// Reads key `name` of `suite` as this kind: `true` if a value decoded, `false` if the default came back.
	public let read: @Sendable (_ suite: UserDefaults, _ name: String) -> Bool

	static func of<Value: Defaults.Serializable & SendableMetatype>(_: Value.Type) -> Self {
		Self(name: "\(Value.self)") { suite, name in suite[Defaults.Key<Value?>(name, suite: suite)] != nil }
	}

	public static let all: [Self] = [
		.of(Int.self), .of(Int8.self), .of(Int16.self), .of(Int32.self), .of(Int64.self),
		.of(UInt.self), .of(UInt8.self), .of(UInt16.self), .of(UInt32.self), .of(UInt64.self),
		.of(Double.self), .of(Float.self), .of(Bool.self), .of(String.self), .of(Data.self), .of(Date.self),
		.of(URL.self), .of(UUID.self), .of(FuzzPoint.self), .of(FuzzMode.self), .of(FuzzCodableMode.self),
		.of([Int].self), .of([String].self), .of(Set<Int>.self), .of([String: Int].self), .of([Int: String].self),
		.of(Range<Int>.self), .of(ClosedRange<Double>.self), .of([FuzzPoint].self), .of([Int?].self),
		.of([[String: Set<Int>]].self), .of([String: [FuzzPoint]].self), .of(FuzzLabel.self),
		.of(Defaults.AnySerializable.self),
	]
}

/// Random property-list values, many of them near misses (JSON fragments, numbers at the edges, archives of other classes).
public enum StoredValueGenerator {
	public static func value(seed: UInt64, index: Int) -> Any {
		var random = FuzzRandom(seed: seed, index: index)
		return value(depth: 0, using: &random)
	}

	private static let strings = [
		"", "x", "true", "1", "-1", "1.5", "nan", "dark", "\"dark\"", "hour", "\"hour\"", "{", "{\"x\":1}", "{\"x\":1,\"label\":\"a\"}",
		"{\"x\":\"1\",\"label\":\"a\"}", "[1,2]", "[]", "null", "\"https:\\/\\/example.com\"", "https://example.com", "\"\"",
		"E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8-C36C-495A-93FC", "2024-01-01T00:00:00Z", String(repeating: "9", count: 40),
		"[{\"x\":1,\"label\":\"a\"},{}]", "\u{0}", "é",
	]

	private static func value(depth: Int, using random: inout FuzzRandom) -> Any {
		switch random.below(depth < 3 ? 11 : 8) {
		case 0, 1:
			return strings[random.below(strings.count)]
		case 2:
			return [0, 1, -1, 2, 127, 128, 255, 256, 65_536, Int(Int32.max) + 1, Int.max, Int.min][random.below(12)]
		case 3:
			return [0.5, -0.0, 1e300, -1e300, Double(Float.greatestFiniteMagnitude) * 2, 3.0, .infinity, .leastNonzeroMagnitude][random.below(8)]
		case 4:
			return random.chance(0.5)
		case 5:
			return Data((0..<random.below(24)).map { _ in UInt8.random(in: 0...255, using: &random) })
		case 6:
			return Date(timeIntervalSinceReferenceDate: Double(random.below(2_000_000_000)) - 1_000_000_000)
		case 7:
			return ArchiveMutator.mutant(of: ArchiveFuzzSubject.all[random.below(ArchiveFuzzSubject.all.count)].archive(), seed: random.next(), index: 0)
		case 8, 9:
			return (0..<random.below(4)).map { _ in value(depth: depth + 1, using: &random) }
		default:
			var dictionary: [String: Any] = [:]
			for _ in 0..<random.below(4) {
				dictionary[strings[random.below(strings.count)]] = value(depth: depth + 1, using: &random)
			}

			return dictionary
		}
	}
}
