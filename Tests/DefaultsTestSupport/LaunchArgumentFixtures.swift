import Defaults
import Foundation

/// A `Codable` value for the launch-argument fixtures.
public struct FixtureWindow: Codable, Hashable, Defaults.Serializable {
	public var width: Int
	public var title: String

	public init(width: Int, title: String) {
		self.width = width
		self.title = title
	}
}

public enum FixtureTheme: String, Codable, Defaults.Serializable {
	case light, dark
}

public enum FixtureLevel: Int, Defaults.Serializable {
	case easy = 1, hard = 3
}

public final class FixtureShape: NSObject, NSSecureCoding, Defaults.Serializable {
	public static var supportsSecureCoding: Bool { true }
	public let sides: Int

	public init(sides: Int) {
		self.sides = sides
	}

	public init?(coder: NSCoder) {
		sides = coder.decodeInteger(forKey: "sides")
	}

	public func encode(with coder: NSCoder) {
		coder.encode(sides, forKey: "sides")
	}
}

/**
One key of every supported type with a value for it, shared by the tests that
launch `DefaultsTestHelper` with generated arguments and the helper that reads
them back: each case describes its value the same way on both sides.
*/
public struct LaunchArgumentFixture {
	public let name: String
	/// Adds the key's value to the arguments.
	public let give: (inout Defaults.LaunchArguments) -> Void
	/// Reads the key in this process and describes what it read.
	public let read: () -> String
	/// How the value given is described.
	public let expected: String

	init<Value: Defaults.Serializable>(
		_ name: String,
		_ value: Value,
		default defaultValue: Value,
		describe: @escaping (Value) -> String = { String(describing: $0) }
	) {
		let key = Defaults.Key<Value>(name, default: defaultValue)
		// One line per value, whatever it holds.
		let line = { (value: Value) in describe(value).replacingOccurrences(of: "\n", with: "\\n") }
		self.name = name
		give = { $0[key] = value }
		read = { line(Defaults[key]) }
		expected = line(value)
	}

	/// Every supported type, with the values Foundation's own parsing would drop or mangle.
	public static var all: [LaunchArgumentFixture] {
		[
			.init("argBool", true, default: false),
			.init("argInt", -42, default: 0),
			.init("argInt8", Int8.min, default: 0),
			.init("argInt16", Int16(-300), default: 0),
			.init("argInt32", Int32.max, default: 0),
			.init("argInt64", Int64.min, default: 0),
			.init("argUInt", UInt(7), default: 0),
			.init("argUInt8", UInt8.max, default: 0),
			.init("argUInt16", UInt16.max, default: 0),
			.init("argUInt32", UInt32.max, default: 0),
			.init("argUInt64", UInt64.max, default: 0),
			.init("argDouble", -0.125, default: 0),
			.init("argFloat", Float(0.1), default: 0),
			.init("argCGFloat", CGFloat(2.5), default: 0),
			.init("argStringDash", "-starts with a dash", default: ""),
			.init("argStringParen", "(not, an, array)", default: ""),
			.init("argStringBrace", "{not = a; dict = 1;}", default: ""),
			.init("argStringAngle", "<integer>1</integer> & more", default: ""),
			.init("argStringQuote", "\"quoted\"", default: ""),
			.init("argStringLines", "first line\nsecond line", default: ""),
			.init("argStringEmpty", "", default: "default"),
			.init("argStringUnicode", "ünïcødé ✓ 日本", default: ""),
			.init("argData", Data([0, 1, 254, 255]), default: Data()),
			.init("argDate", Date(timeIntervalSince1970: 1_795_336_200), default: Date(timeIntervalSince1970: 0)) { "\($0.timeIntervalSince1970)" },
			.init("argDateFraction", Date(timeIntervalSince1970: 1_795_336_200.25), default: Date(timeIntervalSince1970: 0)) { "\($0.timeIntervalSince1970)" },
			.init("argURL", URL(string: "https://example.com/a b?q=1&r=-2#frag")!, default: URL(string: "about:blank")!),
			.init("argUUID", UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, default: UUID()),
			.init("argCodable", FixtureWindow(width: 800, title: "-main \"window\""), default: FixtureWindow(width: 0, title: "")),
			.init("argCodableEnum", FixtureTheme.dark, default: .light),
			.init("argRawEnum", FixtureLevel.hard, default: .easy),
			.init("argSecureCoding", FixtureShape(sides: 5), default: FixtureShape(sides: 0)) { "shape \($0.sides)" },
			.init("argOptional", Int?.some(-1), default: nil),
			.init("argIntArray", [-1, 0, 1], default: []),
			.init("argStringArray", ["-a", "(b)", "c\nd"], default: []),
			.init("argSet", Set(["x", "-y"]), default: []) { $0.sorted().description },
			.init("argDictionary", ["-k": -1, "k": 2], default: [:]) { $0.sorted { $0.key < $1.key }.description },
			.init("argNested", [["a": [1, 2]], ["b": []]], default: []) { $0.map { $0.sorted { $0.key < $1.key } }.description },
			.init("argCodableArray", [FixtureWindow(width: 1, title: "a"), FixtureWindow(width: 2, title: "b")], default: []),
			.init("argRange", -5..<5, default: 0..<0),
			.init("argClosedRange", 0.5...1.5, default: 0...0),
			.init("argAny", Defaults.AnySerializable(["mixed", 1, true] as [Defaults.AnySerializable]), default: Defaults.AnySerializable(0)),
		]
	}
}

/// A launch argument as people type it by hand, and the typed value it must read as.
public struct HandTypedArgument {
	public let fixture: LaunchArgumentFixture
	public let text: String

	/// The arguments a person would type: `-name text`.
	public var arguments: [String] {
		["-\(fixture.name)", text]
	}

	public static var all: [HandTypedArgument] {
		[
			.init(fixture: .init("typedInt", 8, default: 0), text: "8"),
			.init(fixture: .init("typedYes", true, default: false), text: "YES"),
			.init(fixture: .init("typedTrue", true, default: false), text: "true"),
			.init(fixture: .init("typedOne", true, default: false), text: "1"),
			.init(fixture: .init("typedNo", false, default: true), text: "no"),
			.init(fixture: .init("typedDouble", 0.5, default: 0), text: "0.5"),
			.init(fixture: .init("typedFloat", Float(0.25), default: 0), text: "0.25"),
			.init(fixture: .init("typedOptional", Int?.some(3), default: nil), text: "3"),
			.init(fixture: .init("typedString", "plain words", default: ""), text: "plain words"),
			.init(fixture: .init("typedURL", URL(string: "https://example.com/a?b=1#c")!, default: URL(string: "about:blank")!), text: "https://example.com/a?b=1#c"),
			.init(fixture: .init("typedTheme", FixtureTheme.dark, default: .light), text: "dark"),
			.init(fixture: .init("typedLevel", FixtureLevel.hard, default: .easy), text: "3"),
			.init(
				fixture: .init("typedDate", Date(timeIntervalSince1970: 1_795_336_200), default: Date(timeIntervalSince1970: 0)) { "\($0.timeIntervalSince1970)" },
				text: "2026-11-22T08:30:00Z"
			),
			.init(fixture: .init("typedUUID", UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, default: UUID()), text: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
		]
	}
}
