#if Configuration
import Configuration
import DefaultsConfiguration
import DefaultsTesting
import Foundation
import Testing
@testable import Defaults

/// The fleet's path: a value one device writes reaches another device's `ConfigReader` watcher through the sync remote.
@Suite("DefaultsProvider and sync")
struct ConfigurationSyncTests {
	/// `@unchecked`: UserDefaults is thread-safe but not marked `Sendable` on Linux.
	final class Device: @unchecked Sendable {
		let suite = InMemoryDefaults()
		let synchronizer: Synchronizer
		let http: Defaults.Key<[String: Int]>

		init(_ name: String, remote: any Defaults.RemoteStore) {
			synchronizer = Synchronizer(device: name)
			http = Defaults.Key<[String: Int]>("http", default: [:], suite: suite)
			synchronizer.add([http])
			synchronizer.remote = remote
		}

		func settle() async {
			synchronizer.refresh()
			await synchronizer.waitForSyncCompletion()
		}
	}

	@Test func aValuePulledFromTheRemoteReachesAWatcher() async throws {
		let remote = InMemoryRemoteStore()
		let operatorDevice = Device("operator", remote: remote)
		let server = Device("server", remote: remote)
		let reader = ConfigReader(providers: [DefaultsProvider(suite: server.suite)])

		let seen = try await withDeadline {
			try await reader.watchInt(forKey: "http.timeout", default: 30) { updates in
				var seen: [Int] = []
				for await timeout in updates {
					seen.append(timeout)
					if seen.count > 1 {
						return seen
					}

					operatorDevice.suite[operatorDevice.http] = ["timeout": 9]
					await operatorDevice.settle()
					await server.settle()
				}

				return seen
			}
		}

		#expect(seen == [30, 9])
		#expect(server.suite[server.http] == ["timeout": 9], "the pull went through the server's suite")
	}
}
#endif
