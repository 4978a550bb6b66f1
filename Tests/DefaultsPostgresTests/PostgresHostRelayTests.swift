#if Postgres
@testable import DefaultsPostgres
import DefaultsTestSupport
import DefaultsTesting
import Foundation
import PostgresNIO
import Testing
@testable import Defaults

extension PostgresTests {
	/// Stores in this process that share one connection through a folder, as a host's processes do (the real processes: `PostgresFleetTests`).
	@Suite("PostgreSQL store: one connection per host", .enabled(if: PostgresTestServer.isAvailable))
	struct SharedConnection {
		/// A folder for one test's relay, removed after it.
		final class RelayFolder {
			let url = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-relay-tests-\(UUID().uuidString)")

			var options: Defaults.PostgresRemoteStore.Options {
				var options = PostgresTestServer.quickOptions
				options.connectionSharing = .through(folder: url)
				options.idleConnectionTimeout = .milliseconds(500)
				return options
			}

			deinit {
				// A store's relay work may still be finishing a write (its task is cancelled, not awaited): try again until it is gone.
				for _ in 0..<50 where FileManager.default.fileExists(atPath: url.path) {
					try? FileManager.default.removeItem(at: url)
					usleep(20_000)
				}
			}
		}

		@Test("stores sharing a connection pass the remote-store conformance check")
		func conformance() async throws {
			let folder = RelayFolder()
			let namespace = PostgresTestServer.uniqueNamespace()
			let store = try PostgresTestServer.store(namespace: namespace, options: folder.options)
			let peer = try PostgresTestServer.store(namespace: namespace, options: folder.options)
			let violations = await RemoteStoreConformance.violations(of: store, peer: peer)
			#expect(violations.isEmpty, "\(violations)")
		}

		@Test("six devices sharing a folder hold at most two connections in all, one once idle, and converge")
		func devicesShareOneConnection() async throws {
			let folder = RelayFolder()
			let namespace = PostgresTestServer.uniqueNamespace()
			let devices = try (0..<6).map { try PostgresDevice("device\($0)", namespace: namespace, keyCount: 6, options: folder.options) }
			func connections() async throws -> Int {
				var total = 0
				for device in devices {
					total += try await PostgresTestServer.connectionCount(of: device.applicationName)
				}
				return total
			}

			var most = 0
			for (index, device) in devices.enumerated() {
				device.suite[device.keys[index]] = "from \(device.name)"
				most = max(most, try await connections())
			}

			let converged = await eventually(timeout: .seconds(60)) {
				for device in devices {
					await device.settle()
				}
				return devices.allSatisfy { device in device.values == devices.indices.map { "from device\($0)" } }
			}
			most = max(most, try await connections())
			#expect(converged, "\(devices.map(\.values))")
			#expect(most <= 2, "the feed and one for statements, for all six")
			#expect(await eventually(timeout: .seconds(30)) { (try? await connections()) == 1 }, "only the feed once idle")

			let reader = try PostgresTestServer.store(namespace: namespace)
			#expect(try await reader.entries().count == 6, "every device's write is in the table")
		}

		@Test("a publication through the relay returns once the table holds it")
		func publicationReachesTheTableFirst() async throws {
			let folder = RelayFolder()
			let namespace = PostgresTestServer.uniqueNamespace()
			let leader = try PostgresTestServer.store(namespace: namespace, options: folder.options)
			_ = try await leader.entries()
			let follower = try PostgresTestServer.store(namespace: namespace, options: folder.options)
			let reader = try PostgresTestServer.store(namespace: namespace)
			for index in 1...5 {
				let stamp = Defaults.SyncTimestamp(milliseconds: 1_000 + Int64(index), counter: 0, device: "follower")
				try await follower.publish(["step": Defaults.RemoteEntry(value: .init(index), timestamp: stamp)])
				#expect(try await reader.entries()["step"]?.value == .init(index))
			}
		}

		@Test("when the process connecting for the others ends, another takes over, and what waited in the outbox is published")
		func takeover() async throws {
			let folder = RelayFolder()
			let namespace = PostgresTestServer.uniqueNamespace()
			var first: Defaults.PostgresRemoteStore? = try PostgresTestServer.store(namespace: namespace, options: folder.options)
			_ = try await first?.entries()
			let second = try PostgresTestServer.store(namespace: namespace, options: folder.options)
			let reader = try PostgresTestServer.store(namespace: namespace)

			// An entry a process handed over just before the leader ended.
			let stamp = Defaults.SyncTimestamp(milliseconds: 2_000, counter: 0, device: "gone")
			try HostRelayFiles(folder: try #require(relayFolder(in: folder.url))).addToOutbox(["handed": Defaults.RemoteEntry(value: "over", timestamp: stamp)])
			first = nil
			_ = first

			let later = Defaults.SyncTimestamp(milliseconds: 3_000, counter: 0, device: "second")
			try await second.publish(["after": Defaults.RemoteEntry(value: "takeover", timestamp: later)])
			let entries = try await reader.entries()
			#expect(entries["after"]?.value == "takeover")
			#expect(entries["handed"]?.value == "over")
		}

		@Test("a copy of the namespace left by a leader that ended is never read as the remote")
		func copyOfAnEndedLeaderIsIgnored() async throws {
			let folder = RelayFolder()
			let namespace = PostgresTestServer.uniqueNamespace()
			let options = folder.options
			var earlier: Defaults.PostgresRemoteStore? = try PostgresTestServer.store(namespace: namespace, options: options)
			_ = try await earlier?.entries()
			earlier = nil
			_ = earlier
			// Its leading task is cancelled, not awaited: let a write of the copy it had in flight land first (none may lead again).
			try await Task.sleep(for: .milliseconds(300))

			// The copy it left, as it may be days later: with an entry the table no longer holds.
			let files = HostRelayFiles(folder: try #require(relayFolder(in: folder.url)))
			let stamp = Defaults.SyncTimestamp(milliseconds: 1_000, counter: 0, device: "old")
			var contents = try #require(try RelayFile.read(files.mirror))
			guard case .dictionary(var entries)? = contents["entries"] else {
				Issue.record("the copy holds no entries: \(contents)")
				return
			}

			entries["ghost"] = Defaults.RemoteEntry(value: "boo", timestamp: stamp).propertyListValue
			contents["entries"] = .dictionary(entries)
			try RelayFile.write(contents, to: files.mirror)
			#expect(try files.mirror(of: files.currentTerm())?.entries?["ghost"] != nil, "the copy names the last term")

			let follower = try PostgresTestServer.store(namespace: namespace, options: options)
			#expect(try await follower.entries()["ghost"] == nil)
		}

		@Test("an entry the table cannot hold is refused to its writer alone: the others' publications land, and it does not wait in the outbox")
		func rejectedEntryHoldsBackNothing() async throws {
			let folder = RelayFolder()
			let namespace = PostgresTestServer.uniqueNamespace()
			let leader = try PostgresTestServer.store(namespace: namespace, options: folder.options)
			_ = try await leader.entries()
			let writer = try PostgresTestServer.store(namespace: namespace, options: folder.options)
			let other = try PostgresTestServer.store(namespace: namespace, options: folder.options)
			let stamp = Defaults.SyncTimestamp(milliseconds: 1_000, counter: 0, device: "writer")
			// Beyond what the table's index can hold (SQLSTATE 54000).
			let oversized = (0..<230).map { _ in UUID().uuidString }.joined()

			await #expect(throws: Defaults.PostgresRemoteStoreError.self) {
				try await writer.publish([oversized: Defaults.RemoteEntry(value: 1, timestamp: stamp), "fine": Defaults.RemoteEntry(value: 2, timestamp: stamp)])
			}
			try await other.publish(["good": Defaults.RemoteEntry(value: 7, timestamp: stamp)])

			let reader = try PostgresTestServer.store(namespace: namespace)
			let entries = try await reader.entries()
			#expect(entries["good"]?.value == 7)
			#expect(entries["fine"]?.value == 2, "published beside the rejected one")
			let files = HostRelayFiles(folder: try #require(relayFolder(in: folder.url)))
			let waiting = { files.waitingEntries(now: HybridLogicalClock.systemMilliseconds()).entries }
			#expect(await eventually { waiting().isEmpty }, "\(waiting().keys.map(\.count))")
		}

		@Test("without sharing too, an entry the table cannot hold does not hold back the others of its publication")
		func rejectedEntryAlone() async throws {
			let namespace = PostgresTestServer.uniqueNamespace()
			let store = try PostgresTestServer.store(namespace: namespace)
			// Several rounds: a refused statement must hand its connection back every time (the store has one for statements).
			for round in 1...5 {
				let stamp = Defaults.SyncTimestamp(milliseconds: 1_000 + Int64(round), counter: 0, device: "writer")
				await #expect(throws: Defaults.PostgresRemoteStoreError.self) {
					try await store.publish([(0..<230).map { _ in UUID().uuidString }.joined(): Defaults.RemoteEntry(value: 1, timestamp: stamp), "fine": Defaults.RemoteEntry(value: .init(round), timestamp: stamp)])
				}
				#expect(try await store.entries()["fine"]?.value == .init(round))
			}
		}

		@Test("a server error that is not about an entry (read-only for a while) is an outage: the entry waits, and lands once it ends")
		func transientServerErrorIsAnOutage() async throws {
			let folder = RelayFolder()
			let namespace = PostgresTestServer.uniqueNamespace()
			let leader = try PostgresTestServer.store(namespace: namespace, options: folder.options)
			_ = try await leader.entries()
			let follower = try PostgresTestServer.store(namespace: namespace, options: folder.options)
			let name = "refuse_\(UUID().uuidString.prefix(8).lowercased())"
			try await PostgresTestServer.execute(PostgresQuery(unsafeSQL: "CREATE FUNCTION \(name)() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'read-only for now' USING ERRCODE = '25006'; END $$"))
			try await PostgresTestServer.execute(PostgresQuery(unsafeSQL: "CREATE TRIGGER \(name) BEFORE INSERT OR UPDATE ON public.defaults_sync FOR EACH ROW WHEN (NEW.namespace = '\(namespace)') EXECUTE FUNCTION \(name)()"))
			let stamp = Defaults.SyncTimestamp(milliseconds: 1_000, counter: 0, device: "follower")
			await #expect(throws: Defaults.PostgresRemoteStoreError.self) {
				try await follower.publish(["k": Defaults.RemoteEntry(value: 7, timestamp: stamp)])
			}
			try await PostgresTestServer.execute(PostgresQuery(unsafeSQL: "DROP TRIGGER \(name) ON public.defaults_sync"))
			try await PostgresTestServer.execute(PostgresQuery(unsafeSQL: "DROP FUNCTION \(name)()"))

			let reader = try PostgresTestServer.store(namespace: namespace)
			#expect(await eventually(timeout: .seconds(20)) { (try? await reader.entries())?["k"]?.value == 7 }, "published from the outbox once the server takes writes")
		}

		@Test("a restore to older rows reaches the copy at the next catch-up, so the processes holding newer values publish them again")
		func restoreReachesTheCopy() async throws {
			let folder = RelayFolder()
			var options = folder.options
			options.catchUpInterval = .milliseconds(500)
			let namespace = PostgresTestServer.uniqueNamespace()
			let leader = try PostgresTestServer.store(namespace: namespace, options: options)
			_ = try await leader.entries()
			let follower = try PostgresTestServer.store(namespace: namespace, options: options)
			let older = Defaults.SyncTimestamp(milliseconds: 1_000, counter: 0, device: "follower")
			let newer = Defaults.SyncTimestamp(milliseconds: 2_000, counter: 0, device: "follower")
			try await follower.publish(["k": Defaults.RemoteEntry(value: 1, timestamp: older)])
			try await follower.publish(["k": Defaults.RemoteEntry(value: 5, timestamp: newer)])
			#expect(try await follower.entries()["k"]?.timestamp == newer)

			// The restore: the row as it was, written without a notification.
			try await PostgresTestServer.execute(PostgresQuery(unsafeSQL: "UPDATE public.defaults_sync SET wall_ms = 1000 WHERE namespace = '\(namespace)' AND key = 'k'"))
			#expect(await eventually(timeout: .seconds(30)) { (try? await follower.entries())?["k"]?.timestamp.milliseconds == 1_000 })
		}

		@Test("the leader's problem (no server) is what every sharing store reports, once per cause")
		func problemIsRelayed() async throws {
			let folder = RelayFolder()
			var options = folder.options
			options.operationTimeout = .seconds(1)
			let namespace = PostgresTestServer.uniqueNamespace()
			var configuration = PostgresTestServer.configuration()
			configuration = .init(host: "127.0.0.1", port: 1, username: configuration.username, password: nil, database: configuration.database, tls: .disable)
			let leader = try Defaults.PostgresRemoteStore(configuration: configuration, namespace: namespace, options: options)
			let follower = try Defaults.PostgresRemoteStore(configuration: configuration, namespace: namespace, options: options)

			let ((leaderError, followerError), _) = await DiagnosticReporter.claimingAsync(where: { $0.message.contains(namespace) }) {
				async let leaderError = failure { _ = try await leader.entries() }
				async let followerError = failure { _ = try await follower.entries() }
				return await (leaderError, followerError)
			}

			let relayed = try #require(followerError as? Defaults.PostgresRemoteStoreError)
			#expect(leaderError is Defaults.PostgresRemoteStoreError)
			#expect(!"\(relayed)".contains("no process connecting"), "the leader's own cause, not a timeout: \(relayed)")
		}

		@Test("a child forked from the leader does not keep the lead once the leader is gone")
		func forkedChildDoesNotHoldTheLead() async throws {
			let folder = RelayFolder()
			let namespace = PostgresTestServer.uniqueNamespace()
			var leader: Defaults.PostgresRemoteStore? = try PostgresTestServer.store(namespace: namespace, options: folder.options)
			_ = try await leader?.entries()
			// A worker forked from a service: it does nothing the store would see (only async-signal-safe calls).
			let child = forkChild()
			try #require(child > 0)
			defer {
				kill(child, SIGKILL)
				var status: Int32 = 0
				while waitpid(child, &status, 0) < 0, errno == EINTR {}
			}

			leader = nil
			_ = leader
			let successor = try PostgresTestServer.store(namespace: namespace, options: folder.options)
			let stamp = Defaults.SyncTimestamp(milliseconds: 1_000, counter: 0, device: "successor")
			try await successor.publish(["after": Defaults.RemoteEntry(value: "fork", timestamp: stamp)])
			let reader = try PostgresTestServer.store(namespace: namespace)
			#expect(try await reader.entries()["after"]?.value == "fork")
		}

		@Test("a folder another user could write to is not trusted: the store connects on its own, and says so once")
		func untrustedFolderIsRefused() async throws {
			let folder = RelayFolder()
			try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
			let namespace = PostgresTestServer.uniqueNamespace()
			let (store, reported) = try DiagnosticReporter.claiming(where: { $0.message.contains(namespace) }) {
				try PostgresTestServer.store(namespace: namespace, options: folder.options)
			}
			#expect(reported.count == 1)
			#expect(reported.first?.message.contains("in a folder others may write to or own") == true, "\(reported)")
			let stamp = Defaults.SyncTimestamp(milliseconds: 1_000, counter: 0, device: "alone")
			try await store.publish(["key": Defaults.RemoteEntry(value: "works", timestamp: stamp)])
			#expect(try await store.entries()["key"]?.value == "works")
		}

		private func failure(_ body: () async throws -> Void) async -> (any Error)? {
			do {
				try await body()
				return nil
			} catch {
				return error
			}
		}

		/// The one relay folder created under `parent`.
		private func relayFolder(in parent: URL) -> URL? {
			let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
			return names.count == 1 ? parent.appendingPathComponent(names[0]) : nil
		}
	}
}
// Not in the Glibc module.
@_silgen_name("fork")
private func fork() -> pid_t

/// A child that sleeps until killed: it calls only async-signal-safe functions, as a child of a threaded process must.
private func forkChild() -> pid_t {
	let child = fork()
	if child == 0 {
		while true {
			sleep(60)
		}
	}

	return child
}
#endif
