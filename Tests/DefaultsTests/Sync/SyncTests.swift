import DefaultsTestSupport
import DefaultsTesting
import Foundation
import Testing
@testable import Defaults

/// Two or more devices, each an in-memory suite with its own synchroniser, sharing one remote.
struct SyncedDevice {
	let suite = InMemoryDefaults()
	let synchronizer: Synchronizer
	let key: Defaults.Key<String>

	init(_ name: String, remote: any Defaults.RemoteStore, keyName: String = "theme", wallClock: @escaping @Sendable () -> Int64 = HybridLogicalClock.systemMilliseconds) {
		synchronizer = Synchronizer(device: name, wallClock: wallClock)
		key = Defaults.Key<String>(keyName, default: "default", suite: suite)
		synchronizer.add([key])
		synchronizer.remote = remote
	}

	func settle() async {
		synchronizer.refresh()
		await synchronizer.waitForSyncCompletion()
	}
}

@Suite("Sync")
struct SyncTests {
	@Test("a freshly installed device never pushes its defaults over real values (Defaults #172, #206)")
	func freshDeviceAdoptsInsteadOfOverwriting() async throws {
		let remote = InMemoryRemoteStore()
		let laptop = SyncedDevice("laptop", remote: remote)
		laptop.suite[laptop.key] = "dark"
		await laptop.settle()

		// Installed later: its key reads the default and was never written there.
		let phone = SyncedDevice("phone", remote: remote)
		#expect(phone.synchronizer.timestamp(of: phone.key) == nil)
		await phone.settle()
		await laptop.settle()

		#expect(phone.suite[phone.key] == "dark")
		#expect(laptop.suite[laptop.key] == "dark")
		#expect(try await remote.entries()["theme"]?.value == "dark")
	}

	@Test("a change reaches the other device's store and observers, and is not echoed back")
	func changeTravelsOnce() async throws {
		let remote = InMemoryRemoteStore()
		let first = SyncedDevice("first", remote: remote)
		let second = SyncedDevice("second", remote: remote)
		let seen = Recorder<String>()
		let observation = Defaults.observe(second.key, options: []) { seen.append($0.newValue) }

		first.suite[first.key] = "blue"
		await first.synchronizer.waitForSyncCompletion()
		await second.settle()

		#expect(second.suite[second.key] == "blue")
		#expect(seen.values == ["blue"])
		let published = try #require(try await remote.entries()["theme"])
		#expect(second.synchronizer.timestamp(of: second.key) == published.timestamp, "adopted with the writer's timestamp, not a new one")
		await second.settle()
		#expect(try await remote.entries()["theme"] == published)
		observation.invalidate()
	}

	@Test("reset travels as a timestamped tombstone")
	func resetTravels() async throws {
		let remote = InMemoryRemoteStore()
		let first = SyncedDevice("first", remote: remote)
		let second = SyncedDevice("second", remote: remote)
		first.suite[first.key] = "green"
		await first.settle()
		await second.settle()
		#expect(second.suite.hasKey(second.key))

		Defaults.reset(first.key)
		await first.settle()
		await second.settle()

		#expect(second.suite[second.key] == "default")
		#expect(!second.suite.hasKey(second.key))
		let entry = try #require(try await remote.entries()["theme"])
		#expect(entry.value == nil)
	}

	@Test("a renamed synced key publishes its value under the new name and retires the old one, which no device brings back")
	func renamedKeyRetiresItsPreviousName() async throws {
		let remote = InMemoryRemoteStore()
		// Still on the version of the app that syncs "colorScheme".
		let old = SyncedDevice("old", remote: remote, keyName: "colorScheme")
		old.suite[old.key] = "dark"
		await old.settle()
		// Updated: syncs "theme" only, and finds "colorScheme" as the old version stored it.
		let updated = SyncedDevice("updated", remote: remote, keyName: "theme")
		updated.suite[Defaults.Key<String>("colorScheme", default: "", suite: updated.suite)] = "dark"

		let renamed = Defaults.Key<String>("theme", default: "default", suite: updated.suite, previousNames: ["colorScheme"])
		await updated.settle()
		await old.settle()

		#expect(updated.suite[renamed] == "dark")
		#expect(try await remote.entries()["theme"]?.value == "dark")
		let retired = try #require(try await remote.entries()["colorScheme"])
		#expect(retired.value == nil, "a tombstone, newer than the old value")
		#expect(!old.suite.hasKey(old.key), "a device still on the old name removes it rather than publishing it again")
	}

	@Test("a change made later wins even when that device's clock is behind")
	func clockSkew() async {
		let remote = InMemoryRemoteStore()
		let ahead = SyncedDevice("ahead", remote: remote) { 1_000_000 }
		let behind = SyncedDevice("behind", remote: remote) { 5 }
		ahead.suite[ahead.key] = "first"
		await ahead.settle()
		await behind.settle()

		behind.suite[behind.key] = "second"
		await behind.settle()
		await ahead.settle()

		#expect(ahead.suite[ahead.key] == "second")
		#expect(behind.suite[behind.key] == "second")
	}

	@Test("a remote entry no real clock stamped is refused once, with a diagnostic, and the device keeps writing")
	func implausibleEntryIsRefused() async throws {
		let remote = InMemoryRemoteStore()
		// A year ahead (a plausible time: only the counter is absurd), so that a loaded machine's slow
		// test cannot reach the stamp's time on its own clock and hide a clock that moved to it.
		let stamp = Defaults.SyncTimestamp(milliseconds: HybridLogicalClock.systemMilliseconds() + 366 * 86_400_000, counter: .max, device: "hostile")
		try await remote.publish(["theme": Defaults.RemoteEntry(value: "hostile", timestamp: stamp)])
		// Claimed from before the device exists: its first pull, started as it gets the remote, may already meet the entry.
		let (device, reported) = await DiagnosticReporter.claimingAsync(where: { $0.key == "theme" && $0.message.contains("hostile") }) {
			let device = SyncedDevice("device", remote: remote)
			await device.settle()
			await device.settle()
			device.suite[device.key] = "mine"
			await device.settle()
			return device
		}

		#expect(reported.filter { $0.kind == .syncFailed && $0.key == "theme" }.count == 1, "\(reported)")
		#expect(device.suite[device.key] == "mine")
		let written = try #require(device.synchronizer.timestamp(of: device.key))
		#expect(written.milliseconds < stamp.milliseconds, "the clock did not move to the refused stamp")
	}

	@Test("timestamps are signed with the remote's device name and the synchroniser's own tag")
	func timestampsCarryTheRemotesDeviceName() async throws {
		let folder = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-sync-\(UUID().uuidString)")
		defer { try? FileManager.default.removeItem(at: folder) }
		let first = SyncedDevice("machine", remote: try Defaults.SharedFolderRemoteStore(folder: folder, device: "laptop"))
		let second = SyncedDevice("machine", remote: try Defaults.SharedFolderRemoteStore(folder: folder, device: "laptop"))
		first.suite[first.key] = "one"
		second.suite[second.key] = "two"

		let stamps = try [first, second].map { try #require($0.synchronizer.timestamp(of: $0.key)) }
		#expect(stamps.allSatisfy { $0.device.hasPrefix("laptop#") }, "\(stamps)")
		#expect(stamps[0].device != stamps[1].device)
		// Detached from the folder before it goes, so no late publication recreates it.
		for device in [first, second] {
			await device.synchronizer.waitForSyncCompletion()
			device.synchronizer.remote = nil
			await device.synchronizer.waitForSyncCompletion()
		}
	}

	@Test("a value beyond the remote's limits is reported and stays local")
	func limits() async throws {
		let remote = InMemoryRemoteStore(limits: Defaults.RemoteLimits(maximumKeys: 1, maximumTotalBytes: 1_000))
		let device = SyncedDevice("device", remote: remote)
		let other = Defaults.Key<String>("other", default: "", suite: device.suite)
		let big = Defaults.Key<String>("big", default: "", suite: device.suite)
		device.synchronizer.add([other, big])

		device.suite[device.key] = "fits"
		await device.settle()
		let (_, reported) = await DiagnosticReporter.claimingAsync(where: { $0.key == "other" && $0.message.contains("at most 1 keys") }) {
			device.suite[other] = "one key too many"
			await device.settle()
		}

		#expect(reported.contains { $0.kind == .syncFailed && $0.key == "other" && $0.message.contains("at most 1 keys") })
		#expect(try await remote.entries().keys.sorted() == ["theme"])
		#expect(device.suite[other] == "one key too many")
	}
}

@Suite("Sync between processes")
struct SyncProcessTests {
	@Test("a value written in one process appears, with its observers fired, in another syncing through a shared folder")
	func twoProcessesThroughASharedFolder() throws {
		let base = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-sync-\(UUID().uuidString)")
		defer { try? FileManager.default.removeItem(at: base) }
		let shared = base.appendingPathComponent("shared").path
		let suiteName = "defaults-sync-tests.\(UUID().uuidString)"
		func environment(_ device: String) -> [String: String] {
			var environment = ProcessInfo.processInfo.environment
			environment["XDG_CONFIG_HOME"] = base.appendingPathComponent(device).path
			return environment
		}

		let observer = try HelperProcess.start(["sync-observe", shared, "desktop", suiteName, "volume", "20"], environment: environment("desktop"))
		defer { observer.kill() }
		try #require(observer.waitForLine(timeout: 20) { $0 == "ready" } != nil)

		let writer = try HelperProcess.run(["sync-write", shared, "laptop", suiteName, "volume", "11"], environment: environment("laptop"))
		#expect(writer.status == 0)
		#expect(writer.lines == ["published"])
		#expect(observer.waitForLine(timeout: 30) { $0 == "change 0 11" } != nil)

		let journals = try FileManager.default.contentsOfDirectory(atPath: shared).filter { $0.hasSuffix(".defaults-journal.plist") }.sorted()
		#expect(journals == ["desktop.defaults-journal.plist", "laptop.defaults-journal.plist"] || journals == ["laptop.defaults-journal.plist"])
	}
}
