import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// Trials of the marker fuzz; `DEFAULTS_FUZZ_TRIALS` overrides (each trial mutates one file several ways).
private let trials = FuzzSettings.trials(default: 300)

/**
Binary property lists holding kinds no setting holds: sets, UIDs, null, fill
and the reserved markers. The library's reader decides every one of them;
none reaches Foundation, whose parser crashes bridging a set (issue 38: a
53-byte file ended every process that read it).
*/
@Suite("Binary property lists holding kinds no setting holds")
struct ForeignKindsTests {
	/// A dictionary whose one value, `k`, is a set holding the integer 1: 53 bytes.
	static let fileHoldingASet: Data = {
		let objects: [UInt8] = [0xD1, 1, 2, 0x51, UInt8(ascii: "k"), 0xC1, 3, 0x10, 1]
		return Data(BinaryPropertyListFormat.magic + objects + [8, 11, 13, 15] + trailer(objects: 4, top: 0, offsetTable: 17))
	}()

	/// A trailer with one-byte offsets and references.
	static func trailer(objects: Int, top: Int, offsetTable: Int) -> [UInt8] {
		func bigEndian(_ value: Int) -> [UInt8] {
			(0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
		}

		return [0, 0, 0, 0, 0, 0, 1, 1] + bigEndian(objects) + bigEndian(top) + bigEndian(offsetTable)
	}

	/// `{"k": object}`, where the object is `marker` followed by `payload`, and may refer to object 3, the integer 1.
	static func file(marker: UInt8, payload: [UInt8]) -> Data {
		let value = [marker] + payload
		let objects: [UInt8] = [0xD1, 1, 2, 0x51, UInt8(ascii: "k")] + value + [0x10, 1]
		let offsets: [UInt8] = [8, 11, 13, UInt8(13 + value.count)]
		return Data(BinaryPropertyListFormat.magic + objects + offsets + trailer(objects: 4, top: 0, offsetTable: 8 + objects.count))
	}

	@Test("the 53-byte file holding a set reads as unreadable, without Foundation")
	func aSetIsUnreadable() {
		#expect(Self.fileHoldingASet.count == 53)
		#expect(BinaryPropertyListReader.decode(Self.fileHoldingASet) == nil)
		#expect(PropertyListValue.parse(Self.fileHoldingASet) == nil)
		guard case .unreadable = PropertyListFileContents.decode(Self.fileHoldingASet) else {
			Issue.record("a file holding a set was read")
			return
		}
	}

	/// Every marker byte, with payloads that make it well formed for each kind (a count, a reference, bytes): the reader's answer is the answer.
	@Test("every marker byte is decided by the library's reader", arguments: 0...255)
	func everyMarker(_ marker: Int) {
		let payloads: [[UInt8]] = [[], [3], [3, 3], [0x10, 1, 3], [0, 0, 0, 0, 0, 0, 0, 1], Array(repeating: 3, count: 16), [0xFF, 0xFF]]
		for payload in payloads {
			let data = Self.file(marker: UInt8(marker), payload: payload)
			let decided = BinaryPropertyListReader.decode(data)
			#expect(PropertyListValue.parse(data) == decided, "marker \(String(marker, radix: 16)) payload \(payload)")
			if case .contents(let contents) = PropertyListFileContents.decode(data) {
				#expect(.dictionary(contents) == decided)
			} else {
				#expect(decided.map { if case .dictionary = $0 { false } else { true } } ?? true)
			}

			// The kinds no setting holds are never read as anything.
			if [0x00, 0x0C, 0x0F, 0x70, 0x80, 0x90, 0xB0, 0xC0, 0xE0, 0xF0].contains(marker & 0xF0 == 0 ? marker : marker & 0xF0) {
				#expect(decided == nil, "marker \(String(marker, radix: 16)) payload \(payload) was read")
			}
		}
	}

	/// Files the library writes, with object markers replaced by random bytes (the foreign kinds most often): parsed without a trap, by the reader alone.
	@Test("mutated markers never reach Foundation, and never trap")
	func mutatedMarkers() {
		let foreign: [UInt8] = [0x00, 0x0C, 0x0D, 0x0E, 0x0F, 0x70, 0x7F, 0x80, 0x81, 0x8F, 0x90, 0x9F, 0xB0, 0xBF, 0xC0, 0xC1, 0xC2, 0xCF, 0xE0, 0xEF, 0xF0, 0xFF]
		var unreadable = 0
		for index in 0..<(trials * 10) {
			var random = FuzzRandom(seed: FuzzSettings.seed, index: index)
			let tree = PropertyListValueGenerator.suite(seed: FuzzSettings.seed, index: index / 10)
			var bytes = [UInt8](BinaryPropertyListWriter.encode(tree))
			let offsets = BinaryPropertyListOffsets.of(bytes)
			for _ in 0..<(1 + random.below(3)) where !offsets.isEmpty {
				let offset = offsets[random.below(offsets.count)]
				bytes[offset] = random.below(2) == 0 ? foreign[random.below(foreign.count)] : UInt8(truncatingIfNeeded: random.next())
			}

			let data = Data(bytes)
			let decided = BinaryPropertyListReader.decode(data)
			#expect(PropertyListValue.parse(data) == decided, "mutant \(index) of seed \(FuzzSettings.seed)")
			if case .unreadable = PropertyListFileContents.decode(data) {
				unreadable += 1
			}
		}

		print("binary property lists with mutated markers: \(unreadable)/\(trials * 10) unreadable, none handed to Foundation")
	}

	// MARK: Real processes

	/// Where the file goes: each place every process of the domain reads.
	enum Place: String, CaseIterable, Sendable {
		case suiteFile = "the suite's file"
		case globalDomain = "the global domain"
		case systemWide = "a system-wide file"
		case forced = "a forced file"
	}

	/// A preferences folder and a system configuration folder of their own (the global domain is every suite's), removed at the end.
	final class Machine {
		let folder = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-foreign-kinds-\(UUID().uuidString)", isDirectory: true)
		let domain = "ForeignKinds-\(UUID().uuidString)"
		var preferences: URL { folder.appendingPathComponent("config", isDirectory: true) }
		var system: URL { folder.appendingPathComponent("xdg", isDirectory: true) }

		init() throws {
			try FileManager.default.createDirectory(at: preferences, withIntermediateDirectories: true)
			try FileManager.default.createDirectory(at: system.appendingPathComponent(AdministratorFiles.forcedFolderName), withIntermediateDirectories: true)
		}

		deinit {
			try? FileManager.default.removeItem(at: folder)
		}

		var environment: [String: String] {
			var environment = ProcessInfo.processInfo.environment
			environment["XDG_CONFIG_HOME"] = preferences.path
			environment["XDG_CONFIG_DIRS"] = system.path
			return environment
		}

		func url(of place: Place) -> URL {
			switch place {
			case .suiteFile:
				preferences.appendingPathComponent("\(domain).plist")
			case .globalDomain:
				preferences.appendingPathComponent(".GlobalPreferences.plist")
			case .systemWide:
				system.appendingPathComponent("\(domain).plist")
			case .forced:
				system.appendingPathComponent(AdministratorFiles.forcedFolderName).appendingPathComponent("\(domain).plist")
			}
		}

		/// Installs the file atomically, readable by every user, as an administrator or another program would.
		func install(_ data: Data, at place: Place) throws {
			let url = url(of: place)
			try data.write(to: url, options: .atomic)
			chmod(url.path, 0o644)
		}

		/// The diagnostic a process reports for the file at `place`.
		static func diagnosticKind(of place: Place) -> String {
			place == .systemWide || place == .forced ? "ignoredAdministratorFile" : "unreadableFile"
		}
	}

	@Test("a process that starts with the file in place reads the registered default and reports the file once", arguments: Place.allCases)
	func atStart(_ place: Place) throws {
		let machine = try Machine()
		try machine.install(Self.fileHoldingASet, at: place)
		let result = try ChildProcess.run("DefaultsTestHelper", ["observe-managed", machine.domain, "k", "0"], environment: machine.environment)
		#expect(result.status == 0, "\(place.rawValue): the process ended with \(result.status)")
		#expect(result.lines.first == "ready app registeredDefault")
		let reports = result.errorOutput.split(separator: "\n").filter { $0.contains(machine.url(of: place).path) }
		#expect(reports.count == 1, "\(place.rawValue): \(result.errorOutput)")
		#expect(reports.allSatisfy { $0.contains(Machine.diagnosticKind(of: place)) })
	}

	@Test("a running process survives the file's installation and reports it", arguments: [Place.globalDomain, .systemWide, .forced])
	func whileRunning(_ place: Place) throws {
		let machine = try Machine()
		let observer = try HelperProcess.start(["observe-managed", machine.domain, "k", "30"], environment: machine.environment)
		defer { observer.kill() }
		#expect(observer.waitForLine(timeout: 20) { $0.hasPrefix("ready") } == "ready app registeredDefault")

		try machine.install(Self.fileHoldingASet, at: place)
		#expect(observer.waitForErrorOutput(containing: machine.url(of: place).path, timeout: 20))
		#expect(observer.errorOutputText.contains(Machine.diagnosticKind(of: place)))
		#expect(!observer.hasExited, "\(place.rawValue): the process ended")
		try machine.install(try PropertyListSerialization.data(fromPropertyList: ["k": "fixed"], format: .binary, options: 0), at: place)
		if place != .forced || getuid() == 0 {
			#expect(observer.waitForLine(timeout: 20) { $0.hasPrefix("key fixed") } != nil, "\(place.rawValue): a readable file is applied again")
		}
	}
}
