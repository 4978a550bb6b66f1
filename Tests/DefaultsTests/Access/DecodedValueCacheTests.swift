import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// A Codable value that counts how often it is decoded.
private struct CountedWindow: Codable, Equatable, Defaults.Serializable {
	static let decodings = Locked([String: Int]())

	var id: String
	var width: Int

	init(id: String, width: Int) {
		self.id = id
		self.width = width
	}

	init(from decoder: any Decoder) throws {
		let container = try decoder.container(keyedBy: CodingKeys.self)
		id = try container.decode(String.self, forKey: .id)
		width = try container.decode(Int.self, forKey: .width)
		let id = id
		Self.decodings.withLock { $0[id, default: 0] += 1 }
	}

	static func decodingCount(_ id: String) -> Int {
		decodings.withLock { $0[id] ?? 0 }
	}
}

/// Reads of Codable values are decoded once per stored value, and every way of changing the value is seen on the next read.
@Suite("Decoded-value cache")
struct DecodedValueCacheTests {
	private let suite = TestSuite()
	private let id = UUID().uuidString

	private func makeKey() -> Defaults.Key<CountedWindow> {
		Defaults.Key<CountedWindow>(suite.keyName(), default: CountedWindow(id: id, width: 0), suite: suite.defaults)
	}

	@Test func repeatedReadsDecodeOnce() {
		let key = makeKey()
		suite.defaults[key] = CountedWindow(id: id, width: 800)

		for _ in 0..<5 {
			#expect(suite.defaults[key].width == 800)
		}

		#expect(CountedWindow.decodingCount(id) == 1)
	}

	@Test func rawWriteByTheProgramIsSeen() throws {
		let key = makeKey()
		suite.defaults[key] = CountedWindow(id: id, width: 800)
		#expect(suite.defaults[key].width == 800)

		// A synchronized raw write is seen like another process's; this process's own write is on disk first.
		try Defaults.flush(suite: suite.defaults)
		suite.defaults.setRawAndSynchronize(#"{"id":"\#(id)","width":1024}"#, forKey: key.name)
		#expect(suite.defaults[key].width == 1024)

		suite.defaults.removeRawAndSynchronize(forKey: key.name)
		#expect(suite.defaults[key].width == 0)
	}

	@Test func resetAndRemoveAllAreSeen() {
		let key = makeKey()
		suite.defaults[key] = CountedWindow(id: id, width: 800)
		#expect(suite.defaults[key].width == 800)
		Defaults.reset(key)
		#expect(suite.defaults[key].width == 0)

		suite.defaults[key] = CountedWindow(id: id, width: 640)
		#expect(suite.defaults[key].width == 640)
		suite.defaults.removeAll()
		#expect(suite.defaults[key].width == 0)
	}

	@Test func anotherSuiteObjectOnTheSameKeyIsSeen() {
		let key = makeKey()
		let other = UserDefaults(suiteName: suite.name)!
		suite.defaults[key] = CountedWindow(id: id, width: 800)
		#expect(suite.defaults[key].width == 800)

		other[key] = CountedWindow(id: id, width: 320)
		#expect(suite.defaults[key].width == 320)
	}

	@Test func writeByAnotherProcessIsSeen() throws {
		let key = makeKey()
		suite.defaults[key] = CountedWindow(id: id, width: 800)
		#expect(suite.defaults[key].width == 800)
		try Defaults.flush(suite: suite.defaults)

		var environment = ProcessInfo.processInfo.environment
		environment["XDG_CONFIG_HOME"] = TestEnvironment.configHome.path
		let result = try ChildProcess.run(
			"defaults",
			["write", suite.name, key.name, "-string", #"{"id":"\#(id)","width":1920}"#],
			environment: environment
		)
		#expect(result.status == 0, "\(result.errorOutput)")
		#expect(suite.wait(timeout: 5) { suite.defaults[key].width == 1920 })
	}

	@Test func aValueThatNoLongerDecodesGivesTheDefault() throws {
		let key = makeKey()
		suite.defaults[key] = CountedWindow(id: id, width: 800)
		#expect(suite.defaults[key].width == 800)

		try Defaults.flush(suite: suite.defaults)
		suite.defaults.setRawAndSynchronize("not json", forKey: key.name)
		let reported = diagnostics {
			#expect(suite.defaults[key].width == 0)
		}
		#expect(reported.map(\.kind) == [.undecodableValue])
	}

	@Test func classInstancesAreNotShared() {
		let key = Defaults.Key<SampleShape?>(suite.keyName(), suite: suite.defaults)
		#expect(key.decodedValues == nil)
		suite.defaults[key] = SampleShape(sides: 3, label: "triangle")
		#expect(suite.defaults[key] !== suite.defaults[key])
	}

	@Test func scalarsAreNotCached() {
		#expect(Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults).decodedValues == nil)
		#expect(Defaults.Key<[String]>(suite.keyName(), default: [], suite: suite.defaults).decodedValues == nil)
		#expect(Defaults.Key<[CountedWindow]>(suite.keyName(), default: [], suite: suite.defaults).decodedValues != nil)
		#expect(Defaults.Key<URL?>(suite.keyName(), suite: suite.defaults).decodedValues != nil)
	}
}
