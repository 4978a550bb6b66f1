import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/**
Real processes writing bursts of synced keys, flushing on threads of their
own while the synchroniser saves stamps (adversarial review of 76c0726):
killed at random points, the ledger file never holds a stamp whose value
the suite's file lacks; after a clean exit, every written key's stamp is in
the ledger file.
*/
@Suite("Sync ledger: bursts in real processes")
struct SyncLedgerProcessTests {
	private struct Device: ~Copyable {
		let base = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-ledger-burst-\(UUID().uuidString)")
		let suite = "defaults-ledger-burst.\(UUID().uuidString)"

		deinit {
			try? FileManager.default.removeItem(at: base)
		}

		func start(_ count: Int, _ mode: [String] = []) throws -> ChildProcess {
			var environment = ProcessInfo.processInfo.environment
			environment["XDG_CONFIG_HOME"] = base.appendingPathComponent("home").path
			return try ChildProcess("DefaultsTestHelper", ["sync-burst", base.appendingPathComponent("shared").path, "desk", suite, String(count)] + mode, environment: environment)
		}

		private func read(_ name: String) throws -> [String: PropertyListValue] {
			let url = base.appendingPathComponent("home").appendingPathComponent("\(name).plist")
			return try PreferencesFile(url: url).read() ?? [:]
		}

		/// The names the ledger file stamps, and the suite file's values.
		func files() throws -> (stamped: Set<String>, stored: [String: PropertyListValue]) {
			let ledger = try read("\(suite).defaults-sync")
			return (Set(ledger.keys.filter { $0.hasPrefix("k") }), try read(suite))
		}
	}

	@Test func aKilledBurstNeverLeavesAStampWithoutItsValue() throws {
		for round in 0..<6 {
			let device = Device()
			let process = try device.start(400)
			// Killed after a varying number of acknowledged writes.
			_ = process.waitForLine(timeout: 60) { $0 == "ack \(40 + round * 60)" }
			process.kill()
			let (stamped, stored) = try device.files()
			let orphans = stamped.filter { stored[$0] == nil }.sorted()
			#expect(orphans.isEmpty, "round \(round): stamps whose values are not in the suite's file: \(orphans.prefix(10))")
		}
	}

	@Test func aCleanBurstSavesEveryStamp() throws {
		for _ in 0..<10 {
			let device = Device()
			let process = try device.start(300, ["clean"])
			#expect(process.waitUntilExit() == 0, "\(process.errorOutputText)")
			#expect(process.receivedLines.last == "done")
			let (stamped, stored) = try device.files()
			let names = Set((0..<300).map { "k\($0)" })
			#expect(names.isSubset(of: stored.keys), "every value is stored")
			let missing = names.subtracting(stamped).sorted { $0.count == $1.count ? $0 < $1 : $0.count < $1.count }
			#expect(missing.isEmpty, "stamps not saved after a clean exit: \(missing.count), e.g. \(missing.prefix(10))")
		}
	}
}
