#if Postgres
import DefaultsPostgres
import DefaultsTestSupport
import Foundation
import PostgresNIO
import Testing
@testable import Defaults

extension PostgresTests {
	/// Rows an administrator, a restore or another program left in the table; each test has a table of its own.
	@Suite("PostgreSQL store, attacked", .enabled(if: PostgresTestServer.isAvailable))
	struct Attacks {
		/// A table of its own (dropped at the end), so schema changes reach no other test.
		private final class OwnTable {
			let name = "defaults_attack_\(UUID().uuidString.prefix(8).lowercased())"
			let namespace = PostgresTestServer.uniqueNamespace("attack")

			var options: Defaults.PostgresRemoteStore.Options {
				var options = PostgresTestServer.quickOptions
				options.table = name
				// Each test creates its own table first, which can take longer than 3 s on a busy machine.
				options.operationTimeout = .seconds(15)
				return options
			}

			func device(_ name: String, catchUp: Duration? = nil, wallClock: @escaping @Sendable () -> Int64 = HybridLogicalClock.systemMilliseconds) throws -> PostgresDevice {
				var options = options
				options.catchUpInterval = catchUp
				return try PostgresDevice(name, namespace: namespace, options: options, wallClock: wallClock)
			}

			func store() throws -> Defaults.PostgresRemoteStore {
				try PostgresTestServer.store(namespace: namespace, device: "inspector", options: options)
			}

			/// Runs `sql` with `$T` replaced by the table's name and `$NS` by the namespace (quoted).
			func execute(_ sql: String) async throws {
				let statement = sql.replacingOccurrences(of: "$T", with: "public.\(name)").replacingOccurrences(of: "$NS", with: "'\(namespace)'")
				do {
					try await PostgresTestServer.execute(PostgresQuery(unsafeSQL: statement))
				} catch {
					throw StatementFailure(statement: statement, error: String(reflecting: error))
				}
			}

			struct StatementFailure: Error {
				let statement: String
				let error: String
			}

			deinit {
				let name = name
				Task.detached { try? await PostgresTestServer.execute(PostgresQuery(unsafeSQL: "DROP TABLE IF EXISTS public.\(name)")) }
			}
		}

		private static var now: Int64 {
			HybridLogicalClock.systemMilliseconds()
		}

		/// 2100-01-01, as a restore or an administrator's `UPDATE` might stamp a row.
		private static let year2100: Int64 = 4_102_444_800_000

		@Test("a row with the largest counter is refused and reported; the process's next write neither traps nor loses")
		func counterOverflowRow() async throws {
			let table = OwnTable()
			let store = try table.store()
			try await store.publish(["other": Defaults.RemoteEntry(value: 1, timestamp: .init(milliseconds: 1, counter: 0, device: "d"))])
			let five = try PropertyListSerialization.data(fromPropertyList: [5], format: .binary, options: 0).map { String(format: "%02x", $0) }.joined()
			try await table.execute("INSERT INTO $T (namespace, key, value, tombstone, wall_ms, counter, device) VALUES ($NS, 'volume', '\\x\(five)'::bytea, false, \(Self.now + 60_000), 4294967295, 'hostile')")
			let suite = "defaults-pg-overflow.\(UUID().uuidString)"
			defer {
				TestEnvironment.removeFiles(ofSuite: suite)
				TestEnvironment.removeFiles(ofSuite: "\(suite).defaults-sync")
			}

			let environment = PostgresTestServer.childEnvironment(overriding: ["DEFAULTS_PG_TABLE": table.name])
			let writer = try ChildProcess.run("DefaultsPostgresTestHelper", ["write-each", table.namespace, suite, "volume", "2", "20"], environment: environment)

			#expect(writer.status == 0, "\(writer.errorOutput)")
			#expect(writer.errorOutput.contains("'volume'") || writer.errorOutput.contains("volume"), "\(writer.errorOutput)")
			#expect(writer.errorOutput.contains("column counter"), "\(writer.errorOutput)")
			#expect(try await store.entries()["volume"]?.value == 2)
		}

		@Test("a row stamped in 2100 is skipped and reported, and the next write replaces it")
		func rowStampedIn2100() async throws {
			let table = OwnTable()
			let device = try table.device("laptop")
			device.value = "mine"
			await device.settle()
			try await table.execute("UPDATE $T SET wall_ms = \(Self.year2100) WHERE namespace = $NS")

			// No NOTIFY came: the device writes without having read the row.
			device.value = "later"
			await device.synchronizer.waitForSyncCompletion()
			#expect(try await table.store().entries()["theme"]?.value == "later")

			try await table.execute("UPDATE $T SET wall_ms = \(Self.year2100) WHERE namespace = $NS")
			let collected = try await collectingDiagnostics { try await table.store().entries() }
			#expect(collected.result["theme"] == nil)
			#expect(collected.diagnostics.contains { $0.key == "theme" && $0.message.contains("column wall_ms") }, "\(collected.diagnostics)")
		}

		@Test("a write the table refuses for a newer row is noticed: reported, the newer value adopted, and the next write wins")
		func refusedPublication() async throws {
			let table = OwnTable()
			let device = try table.device("laptop")
			device.value = "mine"
			await device.settle()
			// An administrator's change, an hour ahead, without NOTIFY.
			try await table.execute("UPDATE $T SET wall_ms = wall_ms + 3600000, device = 'admin' WHERE namespace = $NS")

			let collected = await collectingDiagnostics {
				device.value = "later"
				await device.synchronizer.waitForSyncCompletion()
				return await eventually { device.value == "mine" }
			}

			#expect(collected.result, "the device still shows \(device.value)")
			#expect(collected.diagnostics.contains { $0.kind == .syncFailed && $0.key == "theme" && $0.message.contains("refused") }, "\(collected.diagnostics)")
			device.value = "third"
			await device.settle()
			#expect(try await table.store().entries()["theme"]?.value == "third")
		}

		@Test("a NULL in a column the store reads skips that row only, reported by key and column; the key can be written again", arguments: ["wall_ms", "counter", "device", "tombstone", "value"])
		func nullColumn(column: String) async throws {
			let table = OwnTable()
			let store = try table.store()
			let stamp = Defaults.SyncTimestamp(milliseconds: Self.now, counter: 0, device: "d")
			try await store.publish(["good": .init(value: "fine", timestamp: stamp), "bad": .init(value: "damaged", timestamp: stamp)])
			try await table.execute("ALTER TABLE $T ALTER COLUMN \(column) DROP NOT NULL")
			try await table.execute("UPDATE $T SET \(column) = NULL WHERE namespace = $NS AND key = 'bad'")

			let collected = try await collectingDiagnostics { try await store.entries() }
			#expect(collected.result.keys.sorted() == ["good"])
			#expect(collected.diagnostics.count == 1 && collected.diagnostics.first?.key == "bad" && collected.diagnostics.first?.message.contains("column \(column)") == true, "\(collected.diagnostics)")

			let later = Defaults.SyncTimestamp(milliseconds: Self.now, counter: 1, device: "d")
			try await store.publish(["bad": .init(value: "repaired", timestamp: later)])
			#expect(try await store.entries()["bad"]?.value == "repaired")
		}

		@Test("an emptied table (TRUNCATE) is noticed without any announcement, reported once, and filled again with what the devices hold")
		func truncatedTable() async throws {
			let table = OwnTable()
			let device = try table.device("laptop", catchUp: .milliseconds(200))
			device.value = "kept"
			await device.settle()

			let collected = try await collectingDiagnostics {
				try await table.execute("TRUNCATE $T")
				return try await eventually { try await table.store().entries()["theme"]?.value == "kept" }
			}

			#expect(collected.result, "never written back")
			#expect(collected.diagnostics.filter { $0.message.contains("holds no entry") }.count == 1, "\(collected.diagnostics)")
			let fresh = try table.device("phone")
			#expect(await eventually {
				await fresh.settle()
				return fresh.value == "kept"
			})
		}

		@Test("a value column whose type was changed: nothing is written, the problem is reported once, and after the repair the devices' values return")
		func valueColumnTypeChanged() async throws {
			let table = OwnTable()
			let device = try table.device("laptop")
			device.value = "one"
			await device.settle()
			try await table.execute("ALTER TABLE $T ALTER COLUMN value TYPE text USING encode(value, 'base64')")

			let collected = try await collectingDiagnostics {
				device.value = "two"
				await device.settle()
				try await Task.sleep(for: .seconds(1))
				await device.settle()
			}

			let problems = collected.diagnostics.filter { $0.message.contains("cannot hold synced entries: its column value") && !$0.message.contains("failed") }
			#expect(problems.count == 1, "\(collected.diagnostics)")
			#expect(!collected.diagnostics.contains { $0.kind == .undecodableValue }, "reported per row: \(collected.diagnostics)")

			try await table.execute("ALTER TABLE $T ALTER COLUMN value TYPE bytea USING decode(value, 'base64')")
			#expect(try await eventually { try await table.store().entries()["theme"]?.value == "two" })
			let fresh = try table.device("phone")
			#expect(await eventually {
				await fresh.settle()
				return fresh.value == "two"
			})
		}

		@Test("a table that can be read but not written is retried less and less often, not at every read that works, and takes the write once it can")
		func readableButNotWritableTableBacksOff() async throws {
			let table = OwnTable()
			let device = try table.device("laptop")
			device.value = "one"
			await device.settle()
			try await table.execute("CREATE FUNCTION $T_refuse() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RAISE EXCEPTION ''refused by a trigger''; END'")
			try await table.execute("CREATE TRIGGER refuse BEFORE INSERT OR UPDATE ON $T FOR EACH ROW EXECUTE FUNCTION $T_refuse()")

			let collected = try await collectingDiagnostics {
				device.value = "two"
				try await Task.sleep(for: .seconds(3))
				try await table.execute("DROP TRIGGER refuse ON $T")
				let landed = try await eventually(timeout: .seconds(10)) { try await table.store().entries()["theme"]?.value == "two" }
				// The row can be read before the synchroniser, whose publication put it there, has reported that publishing works again.
				await device.settle()
				return landed
			}

			#expect(collected.result, "the write did not land once the table could take it")
			let recovery = try #require(collected.diagnostics.first { $0.message.contains("publishing to the remote works again after") }, "\(collected.diagnostics)")
			let failures = recovery.message.split(separator: " ").drop { $0 != "after" }.dropFirst().first.flatMap { Int($0) } ?? 0
			// From 50 ms doubling to 500 ms over 3 s: about 10 attempts. Restarting at 50 ms after every read that works: 40 or more.
			#expect((1...20).contains(failures), "\(failures) failed publications in 3 s: \(recovery.message)")
		}

		@Test("processes of one host (one machine ID) writing one key at once agree; the stamp carries the device name and a process tag")
		func processesOfOneHost() async throws {
			let trials = TestEnvironment.count("DEFAULTS_PG_TRIALS", default: 3)
			for trial in 0..<trials {
				let table = OwnTable()
				let suites = (0..<2).map { "defaults-pg-host-\(trial)-\($0).\(UUID().uuidString)" }
				defer {
					for suite in suites {
						TestEnvironment.removeFiles(ofSuite: suite)
						TestEnvironment.removeFiles(ofSuite: "\(suite).defaults-sync")
					}
				}

				let environment = PostgresTestServer.childEnvironment(overriding: ["DEFAULTS_PG_TABLE": table.name])
				let writers = try suites.enumerated().map { index, suite in
					try ChildProcess("DefaultsPostgresTestHelper", ["write", table.namespace, suite, "volume", "\(index + 1)", "1"], environment: environment)
				}
				for writer in writers {
					#expect(writer.waitUntilExit() == 0, "\(writer.errorOutputText)")
				}

				let finals = writers.map { $0.receivedLines.last }
				let stored = try #require(try await table.store().entries()["volume"])
				let winner = try #require(stored.value.flatMap { value in (1...2).first { Defaults.AnySerializable($0) == value } })
				#expect(finals == ["local \(winner)", "local \(winner)"], "trial \(trial): \(finals), table \(stored)")
				#expect(stored.timestamp.device.hasPrefix(DeviceIdentity.current + "#"), "\(stored.timestamp)")
			}
		}

		@Test("two processes with one device name writing in the same millisecond converge: their stamps differ")
		func sameDeviceNameSameMillisecond() async throws {
			let table = OwnTable()
			let first = try table.device("replica") { 1_800_000_000_000 }
			let second = try table.device("replica") { 1_800_000_000_000 }
			first.value = "first"
			second.value = "second"
			let stamps = [first, second].compactMap { $0.synchronizer.timestamp(of: $0.key) }
			#expect(stamps.count == 2 && stamps[0] != stamps[1], "\(stamps)")
			#expect(stamps.allSatisfy { $0.device.hasPrefix("replica#") }, "\(stamps)")

			// The one that loses is refused by the table, and the refusal reported: expected, so claimed.
			let (converged, _) = await DiagnosticReporter.claimingAsync(where: { $0.message.contains("@replica#") }) {
				await eventually {
					await first.settle()
					await second.settle()
					return first.value == second.value
				}
			}
			#expect(converged, "diverged: \(first.value) and \(second.value)")
		}
	}
}

/// Runs `body` collecting every diagnostic reported meanwhile, on any task.
private func collectingDiagnostics<Result>(_ body: () async throws -> Result) async rethrows -> (result: Result, diagnostics: [Defaults.Diagnostic]) {
	let collected = Locked<[Defaults.Diagnostic]>([])
	Defaults.setDiagnosticHandler { diagnostic in collected.withLock { $0.append(diagnostic) } }
	defer { Defaults.setDiagnosticHandler(nil) }
	let result = try await body()
	return (result, collected.withLock { $0 })
}
#endif
