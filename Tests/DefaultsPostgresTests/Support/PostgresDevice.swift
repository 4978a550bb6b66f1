#if Postgres
import DefaultsPostgres
import DefaultsTesting
import Foundation
@testable import Defaults

/// A device in this process: an in-memory suite, its own synchroniser and its own store (its own connections,
/// opened as application `applicationName`, so a test can terminate them).
struct PostgresDevice {
	let name: String
	let suite: InMemoryDefaults
	let synchronizer: Synchronizer
	let store: Defaults.PostgresRemoteStore
	let applicationName: String
	/// `theme`, or `key0` … when the device syncs several keys.
	let keys: [Defaults.Key<String>]

	init(
		_ name: String,
		namespace: String,
		keyCount: Int = 1,
		options: Defaults.PostgresRemoteStore.Options = PostgresTestServer.quickOptions,
		wallClock: @escaping @Sendable () -> Int64 = HybridLogicalClock.systemMilliseconds
	) throws {
		self.name = name
		applicationName = "defaults-tests-\(name)-\(UUID().uuidString.prefix(8))"
		synchronizer = Synchronizer(device: "unused", wallClock: wallClock)
		store = try PostgresTestServer.store(namespace: namespace, device: name, applicationName: applicationName, options: options)
		let suite = InMemoryDefaults()
		self.suite = suite
		keys = keyCount == 1
			? [Defaults.Key<String>("theme", default: "default", suite: suite)]
			: (0..<keyCount).map { Defaults.Key<String>("key\($0)", default: "default", suite: suite) }
		synchronizer.add(keys)
		synchronizer.remote = store
	}

	var key: Defaults.Key<String> {
		keys[0]
	}

	var value: String {
		get { suite[key] }
		nonmutating set { suite[key] = newValue }
	}

	var values: [String] {
		keys.map { suite[$0] }
	}

	/// Publishes what is waiting, then reads the remote and applies what it holds.
	func settle() async {
		await synchronizer.waitForSyncCompletion()
		synchronizer.refresh()
		await synchronizer.waitForSyncCompletion()
	}
}
#endif
