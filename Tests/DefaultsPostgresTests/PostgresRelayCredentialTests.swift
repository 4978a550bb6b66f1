#if Postgres
import Defaults
import DefaultsPostgres
import DefaultsTestSupport
import Foundation
import Testing

extension PostgresTests {
	/// Processes of one host with different credentials, sharing a relay folder: each shares only what it could open itself.
	@Suite("PostgreSQL store: a relay per connection identity (real processes)", .enabled(if: PostgresTestServer.isAvailable))
	struct RelayCredentials {
		@Test("a process with a stale password leads nobody else: the correctly configured processes of its host publish and receive, and it reports its own problem")
		func stalePasswordCutsOffNobody() async throws {
			let folder = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-relay-credentials-\(UUID().uuidString)")
			try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
			defer { try? FileManager.default.removeItem(at: folder) }
			let namespace = PostgresTestServer.uniqueNamespace()
			let sharing = ["DEFAULTS_PG_SHARING": "folder:\(folder.path)"]
			let stalePassword = "stale-password-\(UUID().uuidString.prefix(8))"

			// The stale process starts first, so it is the one holding the lead when the others arrive.
			let stale = try ChildProcess("DefaultsPostgresTestHelper", ["observe", namespace, "com.example.relay-stale.\(UUID().uuidString)", "volume", "60"], environment: PostgresTestServer.childEnvironment(overriding: sharing.merging(["DEFAULTS_PG_PASSWORD": stalePassword]) { $1 }))
			defer { if !stale.hasExited { stale.kill() } }
			let leads = await eventually(timeout: .seconds(20)) {
				let relays = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
				return relays.contains { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).appendingPathComponent("leader.lock").path) }
			}
			try #require(leads, "the stale process made its relay: \(stale.errorOutputText)")
			try await Task.sleep(for: .milliseconds(500))

			let observer = try ChildProcess("DefaultsPostgresTestHelper", ["observe", namespace, "com.example.relay-observer.\(UUID().uuidString)", "volume", "60"], environment: PostgresTestServer.childEnvironment(overriding: sharing))
			defer { if !observer.hasExited { observer.kill() } }
			try #require(observer.waitForLine(timeout: 30) { $0 == "ready" } != nil, "\(observer.errorOutputText)")

			let writer = try ChildProcess.run("DefaultsPostgresTestHelper", ["write", namespace, "com.example.relay-writer.\(UUID().uuidString)", "volume", "7", "0"], environment: PostgresTestServer.childEnvironment(overriding: sharing))
			#expect(writer.status == 0, "\(writer.errorOutput)")
			#expect(!writer.errorOutput.contains("password authentication failed"), "the writer is not told another process's problem: \(writer.errorOutput)")

			let reader = try PostgresTestServer.store(namespace: namespace)
			#expect(await eventually(timeout: .seconds(15)) { (try? await reader.entries())?["volume"]?.value == Defaults.AnySerializable(7) }, "the write reached the table: \(writer.errorOutput)")
			#expect(observer.waitForLine(timeout: 15) { $0.hasPrefix("change 0 7 ") } != nil, "the observer received it: \(observer.receivedLines) \(observer.errorOutputText)")
			#expect(stale.waitForErrorOutput(containing: "password authentication failed", timeout: 15), "the stale process reports its own problem: \(stale.errorOutputText)")

			// Two relays, one per identity, and neither password anywhere in the folder: not in a name, not in a file.
			let relays = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("postgres-") }
			#expect(relays.count == 2, "\(relays)")
			let password = try #require(ProcessInfo.processInfo.environment["DEFAULTS_PG_PASSWORD"])
			let enumerator = try #require(FileManager.default.enumerator(atPath: folder.path))
			while let path = enumerator.nextObject() as? String {
				#expect(!path.contains(password) && !path.contains(stalePassword), "\(path)")
				if let contents = FileManager.default.contents(atPath: folder.appendingPathComponent(path).path) {
					let text = String(decoding: contents, as: UTF8.self)
					#expect(!text.contains(password) && !text.contains(stalePassword), "\(path) holds a password")
				}
			}
		}
	}
}
#endif
