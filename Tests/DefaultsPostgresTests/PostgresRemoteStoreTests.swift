#if Postgres
import DefaultsPostgres
import DefaultsTestSupport
import DefaultsTesting
import Foundation
import PostgresNIO
import Testing
@testable import Defaults

extension PostgresTests {
	@Suite("PostgreSQL store contract", .enabled(if: PostgresTestServer.isAvailable))
	struct Contract {
		@Test("passes the remote-store conformance check, as the other stores do")
		func conformance() async throws {
			let namespace = PostgresTestServer.uniqueNamespace()
			let store = try PostgresTestServer.store(namespace: namespace)
			let peer = try PostgresTestServer.store(namespace: namespace)
			let violations = await RemoteStoreConformance.violations(of: store, peer: peer)
			#expect(violations.isEmpty, "\(violations)")
		}

		@Test("namespaces keep tenants apart: neither entries nor change announcements cross them")
		func namespacesAreApart() async throws {
			let billing = try PostgresTestServer.store(namespace: PostgresTestServer.uniqueNamespace("billing"))
			let search = try PostgresTestServer.store(namespace: PostgresTestServer.uniqueNamespace("search"))
			let searchPeer = try PostgresTestServer.store(namespace: search.namespace)
			let heard = Locked<[Set<String>]>([])
			let listener = Task {
				for await keys in search.changes() {
					heard.withLock { $0.append(keys) }
				}
			}
			defer { listener.cancel() }
			// The feed's first announcement is its catch-up ("anything may have changed").
			#expect(await eventually { heard.withLock { $0 == [[]] } })

			let stamp = Defaults.SyncTimestamp(milliseconds: 1_000, counter: 0, device: "a")
			try await billing.publish(["limit": Defaults.RemoteEntry(value: 10, timestamp: stamp)])
			try await searchPeer.publish(["limit": Defaults.RemoteEntry(value: 20, timestamp: stamp)])

			#expect(await eventually { heard.withLock { $0.count == 2 } })
			#expect(heard.withLock { $0 } == [[], ["limit"]])
			#expect(try await billing.entries()["limit"]?.value == 10)
			#expect(try await search.entries()["limit"]?.value == 20)
		}

		@Test("a change of more keys than a NOTIFY payload can name is announced as 'anything may have changed'")
		func oversizedAnnouncement() async throws {
			let namespace = PostgresTestServer.uniqueNamespace()
			let store = try PostgresTestServer.store(namespace: namespace)
			let peer = try PostgresTestServer.store(namespace: namespace)
			let heard = Locked<[Set<String>]>([])
			let listener = Task {
				for await keys in store.changes() {
					heard.withLock { $0.append(keys) }
				}
			}
			defer { listener.cancel() }
			#expect(await eventually { heard.withLock { $0.count == 1 } })

			let stamp = Defaults.SyncTimestamp(milliseconds: 1_000, counter: 0, device: "a")
			let entries = Dictionary(uniqueKeysWithValues: (0..<500).map { ("a-rather-long-key-name-number-\($0)", Defaults.RemoteEntry(value: "v", timestamp: stamp)) })
			try await peer.publish(entries)

			#expect(await eventually { heard.withLock { $0.count == 2 } })
			#expect(heard.withLock { $0.last } == [])
			#expect(try await store.entries().count == 500)
		}

		@Test("the table is created once when many stores start at the same moment")
		func concurrentFirstUse() async throws {
			var options = PostgresTestServer.quickOptions
			options.table = "defaults_sync_\(UUID().uuidString.prefix(8).lowercased())"
			let stores = try (0..<6).map { _ in
				try Defaults.PostgresRemoteStore(configuration: PostgresTestServer.configuration(), namespace: "first-use", options: options)
			}

			let failures = await withTaskGroup(of: String?.self) { group in
				for (index, store) in stores.enumerated() {
					group.addTask {
						do {
							try await store.publish(["key\(index)": Defaults.RemoteEntry(value: "v", timestamp: .init(milliseconds: 1, counter: 0, device: "d"))])
							return nil
						} catch {
							return "\(error)"
						}
					}
				}

				return await group.compactMap { $0 }.reduce(into: [String]()) { $0.append($1) }
			}
			#expect(failures.isEmpty)
			#expect(try await stores[0].entries().count == 6)
			try await PostgresTestServer.execute(PostgresQuery(unsafeSQL: "DROP TABLE public.\(options.table)"))
		}

		@Test("names that would have to be spliced into SQL are refused, never quoted in")
		func identifiersAreChecked() {
			var options = Defaults.PostgresRemoteStore.Options()
			options.table = "settings\"; DROP TABLE users; --"
			#expect(throws: Defaults.PostgresRemoteStoreError.self) {
				try Defaults.PostgresRemoteStore(configuration: PostgresTestServer.configuration(), namespace: "n", options: options)
			}
			#expect(throws: Defaults.PostgresRemoteStoreError.self) {
				try Defaults.PostgresRemoteStore(configuration: PostgresTestServer.configuration(), namespace: "", options: Defaults.PostgresRemoteStore.Options())
			}
		}

		@Test("a row the store cannot decode is skipped with a diagnostic; the other keys still read")
		func damagedRow() async throws {
			let namespace = PostgresTestServer.uniqueNamespace()
			let store = try PostgresTestServer.store(namespace: namespace)
			try await store.publish(["good": Defaults.RemoteEntry(value: "fine", timestamp: .init(milliseconds: 1, counter: 0, device: "d"))])
			try await PostgresTestServer.execute("INSERT INTO public.defaults_sync (namespace, key, value, tombstone, wall_ms, counter, device) VALUES (\(namespace), 'bad', '\\x0102'::bytea, false, 1, 0, 'd')")

			let capture = DiagnosticReporter.Capture()
			let entries = try await DiagnosticReporter.$capture.withValue(capture) { try await store.entries() }
			#expect(entries.keys.sorted() == ["good"])
			#expect(capture.diagnostics.map(\.kind) == [.undecodableValue])
			#expect(capture.diagnostics.first?.key == "bad")
		}
	}
}
#endif
