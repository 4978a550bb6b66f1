#if Postgres
import DefaultsPostgres
import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

extension PostgresTests {
	@Suite("PostgreSQL store: connections held", .enabled(if: PostgresTestServer.isAvailable))
	struct Connections {
		@Test("a store that has worked and gone idle holds only its change feed's connection, and never more than its budget")
		func idleStoreHoldsOneConnection() async throws {
			var options = PostgresTestServer.quickOptions
			options.idleConnectionTimeout = .milliseconds(500)
			let device = try PostgresDevice("idle", namespace: PostgresTestServer.uniqueNamespace(), keyCount: 8, options: options)
			await device.settle()
			var most = 0
			for (index, key) in device.keys.enumerated() {
				device.suite[key] = "value \(index)"
				most = max(most, try await PostgresTestServer.connectionCount(of: device.applicationName))
			}
			await device.settle()

			#expect(most <= 2, "the feed and one for statements")
			#expect(await eventually(timeout: .seconds(30)) { (try? await PostgresTestServer.connectionCount(of: device.applicationName)) == 1 }, "the statement connection closed once idle")
			#expect(try await device.store.entries().count == 8, "and every write was published")
		}
	}
}
#endif
