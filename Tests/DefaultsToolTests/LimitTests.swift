import DefaultsTestSupport
import Foundation
import Testing
import Defaults

/// Runs of each size when comparing the cost of long `-array` writes; the fastest counts.
private let costTrials = TestEnvironment.count("DEFAULTS_TOOL_COST_TRIALS", default: 3)

@Suite("defaults with large inputs and long names")
struct LimitTests {
	@Test("import refuses a device and a file over the size limit before reading them")
	func importRefusesLargeInput() throws {
		let sandbox = ToolSandbox()
		try sandbox.succeed("write", sandbox.domain, "keep", "-int", "1")
		#expect(try sandbox.fail("import", sandbox.domain, "/dev/zero") == "defaults: cannot read /dev/zero: it is a device, not a file or a pipe")

		let large = sandbox.folder.appendingPathComponent("large.plist")
		try ToolSandbox.makeSparseFile(at: large, size: FileLimits.maximumFileSize + 1)
		#expect(try sandbox.fail("import", sandbox.domain, large.path).contains("larger than the 64 MiB a preferences file may have"))
		#expect(try sandbox.fileContents() as NSDictionary == ["keep": 1] as NSDictionary)
	}

	@Test("a domain file over the size limit is refused unread, in one line")
	func largeDomainFile() throws {
		let sandbox = ToolSandbox()
		let size = FileLimits.maximumFileSize + 1
		try ToolSandbox.makeSparseFile(at: sandbox.fileURL, size: size)
		#expect(try sandbox.fail("read", sandbox.domain).contains("is \(size) bytes, more than the 64 MiB (67108864 bytes) a preferences file may have"))
		#expect(try sandbox.fail("write", sandbox.domain, "k", "1").contains("is \(size) bytes"))
	}

	@Test("a domain name is accepted only when every file named after it fits a file name")
	func longDomainNames() throws {
		let sandbox = ToolSandbox()
		let longest = String(repeating: "d", count: PreferencesLocation.longestSuiteName)
		try sandbox.succeed("write", longest, "k", "-int", "1")
		#expect(try sandbox.succeed("read", longest, "k") == "1\n")
		try sandbox.succeed("delete", longest)

		let tooLong = longest + "d"
		let result = try sandbox.run("write", tooLong, "k", "-int", "1")
		#expect(result.status == 64)
		#expect(result.errorOutput == "defaults: domain name '\(tooLong)' is 199 bytes long: the lock, temporary and set-aside files named after it would exceed the 255-byte limit of a file name; use at most 198 bytes\n")
		#expect(!FileManager.default.fileExists(atPath: sandbox.fileURL(of: tooLong).path))
	}

	/// Linear: 8 times the elements cost at most 8 times as much (process start included); it was 64 times (quadratic).
	@Test("write -array costs in proportion to its elements")
	func arrayCostIsLinear() throws {
		let sandbox = ToolSandbox()
		func cost(_ count: Int) throws -> TimeInterval {
			let arguments = ["write", sandbox.domain, "k", "-array"] + (0..<count).map { "element\($0)" }
			var fastest = TimeInterval.infinity
			for _ in 0..<costTrials {
				let start = Date()
				try sandbox.succeed(arguments)
				fastest = min(fastest, Date().timeIntervalSince(start))
			}

			return fastest
		}

		let small = try cost(1_000)
		let large = try cost(8_000)
		#expect((try sandbox.fileContents()["k"] as? [String])?.count == 8_000)
		#expect(large < small * 8, "1,000 elements: \(small) s, 8,000: \(large) s")
	}
}
