import DefaultsTestSupport
import Foundation
import PropertyBased
import Testing
@testable import Defaults

/// Trees per property check; `DEFAULTS_FUZZ_TRIALS` overrides.
private let trials = FuzzSettings.trials(default: 200)

/// The library's binary property-list writer and reader against Foundation's: every file one writes, the other reads the same.
@Suite("Binary property lists: the library's writer and reader")
struct BinaryPropertyListTests {
	static let everyKind: [(name: String, value: PropertyListValue)] = [
		("false", .bool(false)), ("true", .bool(true)),
		("0", .integer(0)), ("255", .integer(255)), ("256", .integer(256)), ("65535", .integer(65_535)), ("65536", .integer(65_536)),
		("UInt32.max", .integer(Int(UInt32.max))), ("UInt32.max + 1", .integer(Int(UInt32.max) + 1)), ("Int64.max", .integer(Int.max)),
		("-1", .integer(-1)), ("Int64.min", .integer(Int.min)),
		("Int64.max + 1", .unsignedInteger(UInt64(Int64.max) + 1)), ("UInt64.max", .unsignedInteger(.max)),
		("Float", .float(1.5)), ("Float -0", .float(-0.0)), ("Float.greatestFiniteMagnitude", .float(.greatestFiniteMagnitude)),
		("Float infinity", .float(.infinity)), ("Float subnormal", .float(.leastNonzeroMagnitude)),
		("Double", .double(0.1)), ("Double -1e300", .double(-1e300)), ("Double infinity", .double(-.infinity)),
		("Double subnormal", .double(.leastNonzeroMagnitude)),
		("date with microseconds", .date(Date(timeIntervalSinceReferenceDate: 745_000_123.456789))),
		("date before 2001", .date(Date(timeIntervalSince1970: -12_345.678))),
		("empty data", .data(Data())), ("14 bytes", .data(Data(repeating: 7, count: 14))), ("15 bytes", .data(Data(repeating: 8, count: 15))),
		("70,000 bytes", .data(Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0) }))),
		("empty string", .string("")), ("14 ASCII characters", .string("abcdefghijklmn")), ("15 ASCII characters", .string("abcdefghijklmno")),
		("NUL", .string("a\u{0}b")), ("accent", .string("é")), ("Japanese", .string("日本語")), ("emoji (surrogate pairs)", .string("👍🏽 ok")),
		("empty array", .array([])), ("nested array", .array([.integer(1), .array([.string("x"), .bool(true)]), .dictionary([:])])),
		("empty dictionary", .dictionary([:])), ("dictionary with non-ASCII keys", .dictionary(["ü": .integer(1), "日本": .string("語"), "": .bool(false)])),
	]

	@Test(arguments: everyKind.indices)
	func everyKindReadsBackThroughFoundation(_ index: Int) throws {
		let (name, value) = Self.everyKind[index]
		try checkRoundTrips(.dictionary(["value": value]), name)
	}

	@Test func anEmptySuite() throws {
		try checkRoundTrips(.dictionary([:]), "empty")
	}

	/// References take 1, 2 or 4 bytes by the object count, offsets by the file's size: each width and the counts at their edges.
	@Test(arguments: [250, 251, 252, 253, 254, 65_530, 65_532, 65_533, 65_534, 70_000])
	func referenceAndOffsetWidths(_ count: Int) throws {
		// The suite, its key and the array are three objects more than the elements.
		let suite = PropertyListValue.dictionary(["array": .array((0..<count).map { .integer($0) })])
		let data = BinaryPropertyListWriter.encode(suite)
		let objects = count + 3
		#expect(Int(data[data.count - 25]) == BinaryPropertyListFormat.width(toHold: objects), "reference size")
		#expect(Int(data[data.count - 26]) == BinaryPropertyListFormat.width(toHold: data.count - 32 - objects * Int(data[data.count - 26])), "offset size")
		try checkRoundTrips(suite, "\(count) elements")
	}

	@Test func randomTreesReadBackThroughFoundation() async {
		await propertyCheck(count: trials, input: Gen.int(in: 0...Int(Int32.max))) { index in
			let tree = PropertyListValueGenerator.suite(seed: FuzzSettings.seed, index: index)
			#expect(throws: Never.self, "tree \(index) of seed \(FuzzSettings.seed)") {
				try checkRoundTrips(tree, "tree \(index) of seed \(FuzzSettings.seed)")
			}
		}
	}

	/// The same contents give the same bytes, whatever order they were built in.
	@Test func theOutputIsDeterministic() {
		let forwards = Dictionary(uniqueKeysWithValues: (0..<500).map { ("key\($0)", PropertyListValue.integer($0)) })
		var backwards: [String: PropertyListValue] = [:]
		for index in (0..<500).reversed() {
			backwards["key\(index)"] = .integer(index)
		}

		#expect(BinaryPropertyListWriter.encode(.dictionary(forwards)) == BinaryPropertyListWriter.encode(.dictionary(backwards)))
	}

	/// Python's `plistlib` reads the library's file as it reads Foundation's.
	@Test(.enabled(if: Python.path != nil, "python3 is not on PATH: the plistlib check is skipped"))
	func pythonReadsTheFileAsFoundationsOwn() throws {
		let folder = try temporaryFolder()
		defer { try? FileManager.default.removeItem(at: folder) }
		var entries = Dictionary(uniqueKeysWithValues: Self.everyKind.map { ($0.name, $0.value) })
		for index in 0..<20 {
			entries["tree \(index)"] = PropertyListValueGenerator.suite(seed: FuzzSettings.seed, index: index)
		}

		let suite = PropertyListValue.dictionary(entries)
		let ours = folder.appendingPathComponent("ours.plist")
		let foundations = folder.appendingPathComponent("foundations.plist")
		try BinaryPropertyListWriter.encode(suite).write(to: ours)
		try PropertyListSerialization.data(fromPropertyList: suite.object, format: .binary, options: 0).write(to: foundations)

		let script = "import plistlib, sys\na, b = (plistlib.load(open(p, 'rb')) for p in sys.argv[1:])\nprint(len(a), a == b)"
		let result = try ChildProcess.run(path: try #require(Python.path), ["-c", script, ours.path, foundations.path], environment: ProcessInfo.processInfo.environment)
		#expect(result.status == 0, "\(result.errorOutput)")
		#expect(result.lines == ["\(entries.count) True"], "\(result.lines) \(result.errorOutput)")
	}

	/// The `defaults` tool prints the library's file as it prints Foundation's.
	@Test func theToolReadsTheFileAsFoundationsOwn() throws {
		let folder = try temporaryFolder()
		defer { try? FileManager.default.removeItem(at: folder) }
		var entries = Dictionary(uniqueKeysWithValues: Self.everyKind.map { ($0.name, $0.value) })
		entries["tree"] = PropertyListValueGenerator.suite(seed: FuzzSettings.seed, index: 1)
		let suite = PropertyListValue.dictionary(entries)
		try BinaryPropertyListWriter.encode(suite).write(to: folder.appendingPathComponent("ours.plist"))
		try PropertyListSerialization.data(fromPropertyList: suite.object, format: .binary, options: 0).write(to: folder.appendingPathComponent("foundations.plist"))

		var environment = ProcessInfo.processInfo.environment
		environment["XDG_CONFIG_HOME"] = folder.path
		let ours = try ChildProcess.run("defaults", ["read", "ours"], environment: environment)
		let foundations = try ChildProcess.run("defaults", ["read", "foundations"], environment: environment)
		#expect(ours.status == 0, "\(ours.errorOutput)")
		#expect(!ours.output.isEmpty)
		#expect(ours.output == foundations.output)
	}

	// MARK: The reader

	/// Files Foundation writes (which share equal objects) read the same through the library's reader as through Foundation's.
	@Test func foundationsFilesReadTheSame() async {
		await propertyCheck(count: trials, input: Gen.int(in: 0...Int(Int32.max))) { index in
			let tree = PropertyListValueGenerator.suite(seed: FuzzSettings.seed, index: index)
			guard let data = try? PropertyListSerialization.data(fromPropertyList: tree.object, format: .binary, options: 0) else {
				Issue.record("Foundation did not encode tree \(index)")
				return
			}

			#expect(BinaryPropertyListReader.decode(data) == foundationReading(data), "tree \(index) of seed \(FuzzSettings.seed)")
		}
	}

	/// Whatever the bytes, the reader returns (never traps); what it accepts, Foundation reads the same.
	@Test func mutatedFilesNeverCrashTheReader() {
		var accepted = 0
		for index in 0..<(trials * 10) {
			var random = FuzzRandom(seed: FuzzSettings.seed, index: index)
			let tree = PropertyListValueGenerator.suite(seed: FuzzSettings.seed, index: index / 10)
			var bytes = [UInt8](BinaryPropertyListWriter.encode(tree))
			for _ in 0..<(1 + random.below(4)) {
				switch random.below(3) {
				case 0:
					bytes[random.below(bytes.count)] = UInt8(truncatingIfNeeded: random.next())
				case 1:
					// The trailer and the offset table: counts, widths and offsets.
					bytes[bytes.count - 1 - random.below(min(bytes.count, 48))] = UInt8(truncatingIfNeeded: random.next())
				default:
					bytes.removeLast(random.below(min(bytes.count, 40)))
				}
			}

			let data = Data(bytes)
			let value = BinaryPropertyListReader.decode(data)
			if let value {
				accepted += 1
				#expect(isSame(value, foundationReading(data)), "mutant \(index) of seed \(FuzzSettings.seed): \(value)")
			}

			// A suite's file is decoded straight into its values: that path takes exactly what the whole-file reader takes.
			let direct = BinaryPropertyListReader.decodeDictionary(data) { $0 }
			if case .dictionary(let contents)? = value {
				#expect(direct == contents, "mutant \(index) of seed \(FuzzSettings.seed)")
			} else {
				#expect(direct == nil, "mutant \(index) of seed \(FuzzSettings.seed)")
			}
		}

		print("mutated binary property lists: \(accepted)/\(trials * 10) still read")
	}

	@Test func aCycleIsRefused() {
		// An array (object 0) whose only element is itself.
		let file = BinaryPropertyListFormat.magic + [0xA1, 0x00] + [8] + Self.trailer(offsetSize: 1, referenceSize: 1, objects: 1, top: 0, offsetTable: 10)
		#expect(BinaryPropertyListReader.decode(Data(file)) == nil)
	}

	@Test func aValueReferringBackToTheTopDictionaryIsACycle() {
		// A dictionary (object 0) whose one key is object 1 ("k") and whose value is itself.
		let file = BinaryPropertyListFormat.magic + [0xD1, 0x01, 0x00] + [0x51, 0x6B] + [8, 11] + Self.trailer(offsetSize: 1, referenceSize: 1, objects: 2, top: 0, offsetTable: 13)
		#expect(BinaryPropertyListReader.decode(Data(file)) == nil)
		#expect(BinaryPropertyListReader.decodeDictionary(Data(file)) { $0 } == nil)
	}

	@Test func onlyADictionaryIsDecodedAsOne() {
		let data = BinaryPropertyListWriter.encode(.array([.integer(1)]))
		#expect(BinaryPropertyListReader.decode(data) != nil)
		#expect(BinaryPropertyListReader.decodeDictionary(data) { $0 } == nil)
		let suite = BinaryPropertyListWriter.encode(.dictionary(["a": .integer(1), "b": .string("two")]))
		#expect(BinaryPropertyListReader.decodeDictionary(suite) { $0 == .integer(1) } == ["a": true, "b": false])
	}

	/// Objects may start at the same bytes, as Foundation allows: each reads as those bytes say, a string shared by three places once.
	@Test func objectsThatOverlapReadAsTheirBytesSay() {
		// Object 0 an array of objects 1, 2 and 3, which all start at the one string "s"; object 4 an array holding object 1 twice.
		let file = BinaryPropertyListFormat.magic + [0xA4, 0x01, 0x02, 0x03, 0x04] + [0x51, 0x73] + [0xA2, 0x01, 0x01]
			+ [8, 13, 13, 13, 15] + Self.trailer(offsetSize: 1, referenceSize: 1, objects: 5, top: 0, offsetTable: 18)
		let shared = PropertyListValue.string("s")
		#expect(BinaryPropertyListReader.decode(Data(file)) == .array([shared, shared, shared, .array([shared, shared])]))
	}

	/// Few bytes that nest references to references double at each level: more values than the file could describe are refused.
	@Test func sharedObjectsThatMultiplyAreRefused() {
		// Object 0 is `true`; object n an array holding object n - 1 twice: 2^40 values in all.
		let levels = 40
		var file = BinaryPropertyListFormat.magic + [0x09]
		var offsets = [8]
		for level in 1...levels {
			offsets.append(file.count)
			file += [0xA2, UInt8(level - 1), UInt8(level - 1)]
		}

		let table = file.count
		file += offsets.map { UInt8($0) }
		file += Self.trailer(offsetSize: 1, referenceSize: 1, objects: levels + 1, top: levels, offsetTable: table)
		#expect(BinaryPropertyListReader.decode(Data(file)) == nil)
	}

	/// The library never writes what its reader refuses: a deeper file is unreadable (not handed to Foundation), and a write that deep is refused.
	@Test func nestingDeeperThanTheReaderGoesIsRefused() throws {
		func nested(_ levels: Int) -> PropertyListValue {
			(0..<levels).reduce(PropertyListValue.integer(1)) { value, _ in .array([value]) }
		}

		let deepest = nested(BinaryPropertyListReader.maximumValueNesting)
		#expect(BinaryPropertyListReader.decode(BinaryPropertyListWriter.encode(.dictionary(["deep": deepest]))) == .dictionary(["deep": deepest]))
		let tooDeep = BinaryPropertyListWriter.encode(.dictionary(["deep": nested(BinaryPropertyListReader.maximumValueNesting + 1)]))
		#expect(BinaryPropertyListReader.decode(tooDeep) == nil)
		guard case .unreadable = PropertyListFileContents.decode(tooDeep) else {
			Issue.record("a file nesting deeper than the reader goes was read")
			return
		}

		let suite = TestSuite()
		let store = Suite.of(suite.defaults)
		let refused = diagnostics { #expect(!store.change("deep", to: nested(BinaryPropertyListReader.maximumValueNesting + 1).object, origin: .local)) }
		let accepted = diagnostics { #expect(store.change("deepest", to: deepest.object, origin: .local)) }
		#expect(refused.map(\.kind) == [.unencodableValue])
		#expect(accepted.isEmpty)
		try Defaults.flush(suite: suite.defaults)
		#expect(suite.fileContents()?["deep"] == nil)
		#expect(suite.fileContents()?["deepest"] != nil, "the deepest value the reader takes is written and read back")
	}

	@Test func otherFormatsAreFoundations() throws {
		let xml = try PropertyListSerialization.data(fromPropertyList: ["a": 1], format: .xml, options: 0)
		#expect(BinaryPropertyListReader.decode(xml) == nil)
		#expect(BinaryPropertyListReader.decode(Data()) == nil)
		#expect(BinaryPropertyListReader.decode(Data("bplist00".utf8)) == nil)
		guard case .contents(let contents) = PropertyListFileContents.decode(xml) else {
			Issue.record("an XML file did not read")
			return
		}

		#expect(contents == ["a": .integer(1)])
	}

	@Test func theSizeIsKnownWithoutWriting() {
		for index in 0..<50 {
			let tree = PropertyListValueGenerator.suite(seed: FuzzSettings.seed, index: index)
			#expect(BinaryPropertyListWriter.encodedSize(of: tree) == BinaryPropertyListWriter.encode(tree).count)
		}
	}

	// MARK: Helpers

	private static func trailer(offsetSize: UInt8, referenceSize: UInt8, objects: Int, top: Int, offsetTable: Int) -> [UInt8] {
		func bigEndian(_ value: Int) -> [UInt8] {
			(0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
		}

		return [0, 0, 0, 0, 0, 0, offsetSize, referenceSize] + bigEndian(objects) + bigEndian(top) + bigEndian(offsetTable)
	}

	private func temporaryFolder() throws -> URL {
		let folder = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-bplist-tests-\(UUID().uuidString)", isDirectory: true)
		try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
		return folder
	}
}

extension PropertyListValue {
	/// The value as Foundation reads it back: an infinite `Float` comes back as a `Double` (CoreFoundation's shared infinities are doubles).
	var asFoundationReadsIt: PropertyListValue {
		switch self {
		case .float(let float) where !float.isFinite:
			.double(Double(float))
		case .array(let elements):
			.array(elements.map(\.asFoundationReadsIt))
		case .dictionary(let entries):
			.dictionary(entries.mapValues(\.asFoundationReadsIt))
		default:
			self
		}
	}
}

/// Equality, except that NaN equals NaN: Foundation reads every NaN as one.
private func isSame(_ left: PropertyListValue?, _ right: PropertyListValue?) -> Bool {
	switch (left, right) {
	case (.double(let left)?, .double(let right)?):
		left == right || left.isNaN && right.isNaN
	case (.array(let left)?, .array(let right)?):
		left.count == right.count && zip(left, right).allSatisfy { isSame($0, $1) }
	case (.dictionary(let left)?, .dictionary(let right)?):
		left.count == right.count && left.allSatisfy { isSame($0.value, right[$0.key]) }
	default:
		left == right
	}
}

/// What Foundation's reader makes of `data`, as the library holds it.
private func foundationReading(_ data: Data) -> PropertyListValue? {
	(try? PropertyListSerialization.propertyList(from: data, format: nil)).flatMap(PropertyListValue.init)
}

/**
Checks that the library's file for `tree` reads back as `tree` through
Foundation and through the library's reader, and as Foundation's own file
for the same tree reads.
*/
private func checkRoundTrips(_ tree: PropertyListValue, _ name: String) throws {
	let ours = BinaryPropertyListWriter.encode(tree)
	#expect(ours.prefix(8) == Data("bplist00".utf8))
	let foundations = try PropertyListSerialization.data(fromPropertyList: tree.object, format: .binary, options: 0)
	#expect(foundationReading(ours) == tree.asFoundationReadsIt, "\(name): Foundation reads the library's file")
	#expect(foundationReading(ours) == foundationReading(foundations), "\(name): as it reads its own")
	#expect(BinaryPropertyListReader.decode(ours) == tree.asFoundationReadsIt, "\(name): the library's reader reads its file")
	#expect(BinaryPropertyListReader.decode(foundations) == foundationReading(foundations), "\(name): and Foundation's as Foundation does")
}

/// `python3`, when it is on `PATH`.
private enum Python {
	static let path: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "")
		.split(separator: ":")
		.map { "\($0)/python3" }
		.first { FileManager.default.isExecutableFile(atPath: $0) }
}
