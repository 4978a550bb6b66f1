import DefaultsTestSupport
import DefaultsTesting
import Foundation
import Testing
@testable import Defaults

/// An administrator's files seen by other processes and machines: live changes in a running program, launch arguments, sync and imports.
@Suite("Settings an administrator manages, across processes and machines")
struct AdministratorProcessTests {
	private static let isRoot = getuid() == 0

	@Test("installing, editing and removing the files reaches another process's key, suite and updates observers", .enabled(if: isRoot))
	func anotherProcessHearsEveryChange() throws {
		let managed = AdministratorLayerTests.ManagedSuite()
		let name = managed.suite.keyName("live")
		let observer = try HelperProcess.start(["observe-managed", managed.suite.name, name, "60"], environment: TestEnvironment.environment)
		defer { observer.kill() }
		#expect(observer.waitForLine(timeout: 20) { $0.hasPrefix("ready") } == "ready app registeredDefault")

		let steps: [(change: () throws -> Void, heard: String)] = [
			({ try managed.install([name: "system"], at: managed.systemWideFile) }, "key system writable systemWide"),
			({ try managed.install([name: "system 2"], at: managed.systemWideFile) }, "key system 2 writable systemWide"),
			({ try managed.install([name: "forced"], at: managed.forcedFile) }, "key forced forced forced"),
			({ try FileManager.default.removeItem(at: managed.forcedFile) }, "key system 2 writable systemWide"),
			({ try FileManager.default.removeItem(at: managed.systemWideFile) }, "key app writable registeredDefault"),
		]
		for (index, step) in steps.enumerated() {
			try step.change()
			let heard = observer.waitForLine(timeout: 20) { line in
				line.hasPrefix("key ") && observer.receivedLines.filter { $0.hasPrefix("key ") }.count > index
			}
			#expect(heard != nil, "step \(index): \(step.heard)")
			#expect(observer.waitForLine(timeout: 20) { _ in observer.receivedLines.filter { $0.hasPrefix("key ") }.count == index + 1 } != nil)
		}

		let lines = observer.receivedLines
		#expect(lines.filter { $0.hasPrefix("key ") } == steps.map(\.heard))
		#expect(observer.waitForLine(timeout: 20) { _ in observer.receivedLines.filter { $0 == "update \(name)" }.count == steps.count } != nil)
		// Heard by its own observer, whose line may come after the updates' on a loaded machine.
		#expect(observer.waitForLine(timeout: 20) { _ in observer.receivedLines.filter { $0 == "suite \(name)" }.count == steps.count } != nil)
	}

	@Test("a launch argument wins over the user's and the system-wide values, and a forced value wins over it", .enabled(if: isRoot))
	func launchArgumentPrecedence() throws {
		let managed = AdministratorLayerTests.ManagedSuite()
		let name = managed.suite.keyName("argument")
		try managed.install([name: "stored"], at: managed.suite.fileURL)
		try managed.install([name: "system"], at: managed.systemWideFile)
		try managed.install([name: "forced"], at: managed.forcedFile)
		let observer = try HelperProcess.start(["observe-managed", managed.suite.name, name, "60", "-\(name)", "argument"], environment: TestEnvironment.environment)
		defer { observer.kill() }
		#expect(observer.waitForLine(timeout: 20) { $0.hasPrefix("ready") } == "ready forced forced")

		try FileManager.default.removeItem(at: managed.forcedFile)
		#expect(observer.waitForLine(timeout: 20) { $0.hasPrefix("key ") } == "key argument writable launchArgument")
	}

	@Test("a synced key forced on one machine keeps its forced value there, while the other machines sync; the forced value is never published", .enabled(if: isRoot))
	func syncLeavesForcedValuesAlone() async throws {
		let forcedMachine = AdministratorLayerTests.ManagedSuite()
		let otherMachine = TestSuite()
		let name = forcedMachine.suite.keyName("synced")
		try forcedMachine.install([name: "forced"], at: forcedMachine.forcedFile)
		let hub = InMemoryRemoteStore()
		let forcedKey = Defaults.Key<String>(name, default: "app", suite: forcedMachine.suite.defaults)
		let otherKey = Defaults.Key<String>(name, default: "app", suite: otherMachine.defaults)
		let forcedSync = Synchronizer(device: "forced-machine")
		forcedSync.add([forcedKey])
		forcedSync.remote = hub
		let otherSync = Synchronizer(device: "other-machine")
		otherSync.add([otherKey])
		otherSync.remote = hub

		let refused = diagnostics { Defaults[forcedKey] = "local" }
		#expect(refused.map(\.kind) == [.forcedValue])
		await forcedSync.waitForSyncCompletion()
		#expect(try await hub.entries()[name] == nil, "neither the forced value nor the refused write was published")

		Defaults[otherKey] = "from the other machine"
		await otherSync.waitForSyncCompletion()
		forcedSync.refresh()
		#expect(await eventually { forcedKey.suiteObject.values.storedObject(forKey: name) as? String == "from the other machine" })
		#expect(Defaults[otherKey] == "from the other machine")
		#expect(Defaults[forcedKey] == "forced")
		#expect(forcedKey.isForced)

		// The pulled value waits under the forced one: once the administrator stops forcing it, it shows.
		try FileManager.default.removeItem(at: forcedMachine.forcedFile)
		#expect(await eventually { Defaults[forcedKey] == "from the other machine" })
		#expect(forcedKey.origin == .stored(file: forcedMachine.suite.fileURL))
	}

	@Test("imports and migrations keep the user's value under a forced one, without refusing", .enabled(if: isRoot))
	func importsStoreUnderForcedValues() throws {
		let managed = AdministratorLayerTests.ManagedSuite()
		let name = managed.suite.keyName("imported")
		try managed.install([name: "forced"], at: managed.forcedFile)
		let key = Defaults.Key<String>(name, default: "app", suite: managed.suite.defaults)
		let backup = try PropertyListSerialization.data(fromPropertyList: [name: "from the backup"], format: .xml, options: 0)

		let reported = diagnostics {
			#expect((try? Defaults.importSettings(backup, into: managed.suite.defaults)) == [name])
		}

		#expect(reported.isEmpty)
		#expect(Defaults[key] == "forced")
		try Defaults.flush(suite: managed.suite.defaults)
		#expect(managed.suite.fileContents()?[name] as? String == "from the backup", "the user's value is kept")
		try FileManager.default.removeItem(at: managed.forcedFile)
		#expect(managed.suite.wait(timeout: 20) { Defaults[key] == "from the backup" })
	}
}
