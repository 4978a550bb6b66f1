import Foundation

/**
Secrets kept in this process's memory only: the store of in-memory suites
(`InMemoryDefaults`) and of every suite a test that isolates itself uses, so
no test reads or writes the real keyring.

<!-- check: internal -->
```swift
let store = InMemorySecretStore()
try store.store(SecretBytes(text: "s3cr3t"), for: SecretItem(suite: "app", key: "apiToken"))
```
*/
final class InMemorySecretStore: SecretStore {
	private let secrets = Locked<[SecretItem: SecretBytes]>([:])

	func secret(for item: SecretItem) throws(Defaults.SecretError) -> SecretBytes? {
		secrets.withLock { $0[item] }
	}

	func store(_ bytes: SecretBytes, for item: SecretItem) throws(Defaults.SecretError) {
		secrets.withLock { $0[item] = bytes }
	}

	func remove(_ item: SecretItem) throws(Defaults.SecretError) {
		_ = secrets.withLock { $0.removeValue(forKey: item) }
	}
}
