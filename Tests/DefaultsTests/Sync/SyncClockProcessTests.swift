import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// Devices as separate processes syncing through a shared folder, each with its own configuration folder.
private struct SharedFolderFleet: ~Copyable {
	let base = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-sync-clock-\(UUID().uuidString)")
	let suite = "defaults-sync-clock.\(UUID().uuidString)"

	var folder: URL {
		base.appendingPathComponent("shared")
	}

	deinit {
		try? FileManager.default.removeItem(at: base)
	}

	/// Runs the test helper as one device, with that device's own configuration folder (its suite and ledger).
	func run(_ command: String, device: String, home: String? = nil, _ arguments: [String]) throws -> ChildProcess.Result {
		var environment = ProcessInfo.processInfo.environment
		environment["XDG_CONFIG_HOME"] = base.appendingPathComponent(home ?? device).path
		return try ChildProcess.run("DefaultsTestHelper", [command, folder.path, device, suite] + arguments, environment: environment)
	}

	/// Writes the journal of `device` as that device would, with one entry stamped `milliseconds`/`counter`.
	func publish(_ value: Int, as device: String, milliseconds: Int64, counter: UInt32 = 0, key: String = "volume") async throws {
		let store = try Defaults.SharedFolderRemoteStore(folder: folder, device: device)
		let stamp = Defaults.SyncTimestamp(milliseconds: milliseconds, counter: counter, device: device)
		try await store.publish([key: Defaults.RemoteEntry(value: Defaults.AnySerializable(value), timestamp: stamp)])
	}

	/// The merged value of `key`, as a device that never synced reads it, and the kinds of what that read reported.
	func remoteValue(_ key: String = "volume") async throws -> (value: Defaults.AnySerializable?, reported: [Defaults.Diagnostic.Kind]) {
		let (entries, reported) = try await DiagnosticReporter.capturingAsync {
			try await Defaults.SharedFolderRemoteStore(folder: folder, device: "reader").entries()
		}
		return (entries[key]?.value, reported.map(\.kind))
	}

	/// The timestamp a device's ledger holds for `key`.
	func ledgerStamp(of home: String, key: String = "volume") throws -> Defaults.SyncTimestamp? {
		let url = base.appendingPathComponent(home).appendingPathComponent("\(suite).defaults-sync.plist")
		let contents = try PreferencesFile(url: url).read()
		return contents?[key].flatMap(Defaults.SyncTimestamp.init(propertyListValue:))
	}
}

@Suite("Sync clocks between processes")
struct SyncClockProcessTests {
	private var now: Int64 {
		HybridLogicalClock.systemMilliseconds()
	}

	@Test("a journal entry with the largest counter is refused with a diagnostic; the device's next write neither traps nor loses")
	func counterOverflowEntry() async throws {
		let fleet = SharedFolderFleet()
		try await fleet.publish(5, as: "hostile", milliseconds: now + 60_000, counter: .max)

		let writer = try fleet.run("sync-write", device: "laptop", ["volume", "11"])

		#expect(writer.status == 0, "\(writer.errorOutput)")
		#expect(writer.lines == ["published"])
		#expect(writer.errorOutput.contains("syncFailed") && writer.errorOutput.contains("counter 4294967295"), "\(writer.errorOutput)")
		let remote = try await fleet.remoteValue()
		#expect(remote.value == 11)
		#expect(remote.reported == [.syncFailed], "the hostile entry, refused by this read too")
	}

	@Test("a journal entry stamped a century ahead is refused; the other journals' entries of the key still sync", arguments: [Int64(100 * 365 * 86_400_000)])
	func farFutureEntry(lead: Int64) async throws {
		let fleet = SharedFolderFleet()
		try await fleet.publish(3, as: "desk", milliseconds: now)
		try await fleet.publish(5, as: "hostile", milliseconds: now + lead)

		let reader = try fleet.run("sync-read", device: "laptop", ["volume"])

		#expect(reader.lines == ["value 3"], "\(reader.errorOutput)")
		#expect(reader.errorOutput.contains("syncFailed") && reader.errorOutput.contains("ten years ahead"), "\(reader.errorOutput)")
		let remote = try await fleet.remoteValue()
		#expect(remote.value == 3)
		#expect(remote.reported == [.syncFailed], "the hostile entry, refused by this read too")
	}

	@Test(
		"a write after a restart wins over a value adopted before it from a clock running ahead, and reaches a fresh device",
		arguments: [Int64(365 * 86_400_000), 60_000]
	)
	func writeAfterRestartWins(skew: Int64) async throws {
		let fleet = SharedFolderFleet()
		try await fleet.publish(5, as: "ahead", milliseconds: now + skew)
		#expect(try fleet.run("sync-read", device: "desk", ["volume"]).lines == ["value 5"])

		// A new process of the same device: its clock must start past what its ledger holds.
		let writer = try fleet.run("sync-write", device: "desk", ["volume", "11"])
		#expect(writer.lines == ["published"], "\(writer.errorOutput)")

		#expect(try fleet.run("sync-read", device: "desk", ["volume"]).lines == ["value 11"], "the write was reverted by the next pull")
		#expect(try fleet.run("sync-read", device: "phone", ["volume"]).lines == ["value 11"], "a fresh device got the older write")
		let remote = try await fleet.remoteValue()
		#expect(remote.value == 11)
		#expect(remote.reported.isEmpty)
	}

	/**
	A process killed after its write was published and before its suite's own
	flush: its stamp was not saved either (its value was not stored yet), so
	the next process of the device takes the write back from the remote, and
	the device and the remote agree. Before, the stamp was saved: the device
	kept its older value under the remote's stamp, for good.
	*/
	@Test("a write published by a process killed before its own flush comes back from the remote")
	func aKilledWritersPublishedWriteComesBack() throws {
		let fleet = SharedFolderFleet()
		#expect(try fleet.run("sync-write", device: "laptop", ["volume", "3"]).lines == ["published"])
		let killed = try fleet.run("sync-write-killed", device: "laptop", ["volume", "11"])
		#expect(killed.lines == ["published"])
		#expect(killed.status == 128 + SIGKILL, "status \(killed.status)")

		#expect(try fleet.run("sync-read", device: "laptop", ["volume"]).lines == ["value 11"], "the device reads its last write")
		#expect(try fleet.run("sync-read", device: "desktop", ["volume"]).lines == ["value 11"], "and so does every other device")
	}

	@Test("stamps are signed with the device name the store was given, and two processes of one device sign differently")
	func stampsCarryTheGivenDeviceName() throws {
		let fleet = SharedFolderFleet()
		#expect(try fleet.run("sync-write", device: "laptop", home: "first", ["volume", "1"]).lines == ["published"])
		#expect(try fleet.run("sync-write", device: "laptop", home: "second", ["volume", "2"]).lines == ["published"])

		let first = try #require(try fleet.ledgerStamp(of: "first"))
		let second = try #require(try fleet.ledgerStamp(of: "second"))
		#expect(first.device.hasPrefix("laptop#"), "\(first)")
		#expect(second.device.hasPrefix("laptop#"), "\(second)")
		#expect(first.device != second.device)
	}
}
