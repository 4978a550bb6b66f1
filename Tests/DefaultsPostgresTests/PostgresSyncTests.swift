#if Postgres
import DefaultsPostgres
import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

extension PostgresTests {
	@Suite("Sync through PostgreSQL", .enabled(if: PostgresTestServer.isAvailable))
	struct Sync {
		@Test("three devices writing the same key at once converge to the latest explicit write")
		func threeDevicesConverge() async throws {
			let namespace = PostgresTestServer.uniqueNamespace()
			let devices = try ["a", "b", "c"].map { try PostgresDevice($0, namespace: namespace) }
			let rounds = TestEnvironment.count("DEFAULTS_PG_TRIALS", default: 5)
			var latest: Defaults.SyncTimestamp?
			var expected = ""
			// The writes that lose are refused by the table, and each refusal is reported: expected, so claimed.
			let tags = devices.map { "@\($0.name)#" }
			let (converged, _) = try await DiagnosticReporter.claimingAsync(where: { diagnostic in tags.contains { diagnostic.message.contains($0) } }) {
				var lastWrites: [Defaults.SyncTimestamp] = []
				for round in 0..<rounds {
					// No await between the writes: no device has seen the others' before writing, and their
					// synchronisers publish all three at the same moment.
					lastWrites = devices.compactMap { device in
						device.value = "\(device.name)-\(round)"
						return device.synchronizer.timestamp(of: device.key)
					}
					try await Task.sleep(for: .milliseconds(Int.random(in: 0...20)))
				}

				let newest = try #require(lastWrites.max())
				latest = newest
				let writer = try #require(devices.first { newest.device.hasPrefix("\($0.name)#") })
				expected = "\(writer.name)-\(rounds - 1)"
				return await eventually {
					for device in devices {
						await device.settle()
					}

					return devices.allSatisfy { $0.value == expected }
				}
			}
			#expect(converged, "values: \(devices.map(\.value)), expected \(expected)")
			let stored = try await devices[0].store.entries()["theme"]
			#expect(stored?.value == Defaults.AnySerializable(expected))
			#expect(stored?.timestamp == latest)
		}

		@Test("a device that never wrote a key adopts the remote value and never pushes its default")
		func freshDeviceNeverPushesItsDefault() async throws {
			let namespace = PostgresTestServer.uniqueNamespace()
			let laptop = try PostgresDevice("laptop", namespace: namespace)
			laptop.value = "dark"
			await laptop.settle()
			let published = try #require(try await laptop.store.entries()["theme"])

			let phone = try PostgresDevice("phone", namespace: namespace)
			#expect(phone.value == "default")
			#expect(phone.synchronizer.timestamp(of: phone.key) == nil)
			#expect(await eventually {
				await phone.settle()
				return phone.value == "dark"
			})
			#expect(try await phone.store.entries()["theme"] == published)
		}

		@Test("a value written in one process reaches the observers of another through the server")
		func twoProcesses() throws {
			let namespace = PostgresTestServer.uniqueNamespace()
			let observerSuite = "defaults-pg-observer.\(UUID().uuidString)"
			let writerSuite = "defaults-pg-writer.\(UUID().uuidString)"
			defer {
				for suite in [observerSuite, writerSuite] {
					TestEnvironment.removeFiles(ofSuite: suite)
					TestEnvironment.removeFiles(ofSuite: "\(suite).defaults-sync")
				}
			}

			let observer = try ChildProcess("DefaultsPostgresTestHelper", ["observe", namespace, observerSuite, "volume", "30"], environment: PostgresTestServer.childEnvironment())
			defer { observer.kill() }
			try #require(observer.waitForLine(timeout: 20) { $0 == "ready" } != nil, "\(observer.errorOutputText)")

			let writer = try ChildProcess.run("DefaultsPostgresTestHelper", ["write", namespace, writerSuite, "volume", "11", "0"], environment: PostgresTestServer.childEnvironment())
			#expect(writer.status == 0, "\(writer.errorOutput)")
			#expect(writer.lines == ["written", "local 11"])
						#expect(observer.waitForLine(timeout: 30) { $0.hasPrefix("change 0 11 ") } != nil, "\(observer.receivedLines) \(observer.errorOutputText)")
		}
	}
}
#endif
