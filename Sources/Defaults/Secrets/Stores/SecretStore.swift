import Foundation

/**
Where a suite keeps its secret keys' values: the seam between a suite's
secrets (``SuiteSecrets``) and the backends.

Requirements of a conformer:
- Every call returns or throws within about a second: a store that waits on
  a daemon bounds the wait and throws ``Defaults/SecretError/timedOut(_:)``.
- "No value" is `nil`, never an error; a store that cannot tell (a locked
  keyring) throws ``Defaults/SecretError/locked``.
- A store that cannot be written throws
  ``Defaults/SecretError/readOnly(credential:)`` from `store` and `remove`.
- Errors carry no secret: they are reported as diagnostics.
- Calls may come from any thread at once.
- A store that can tell when another process changes a secret (the Secret
  Service's signals) implements `hearChanges(_:)`; the others keep the
  default, and a change is then seen at the key's next load.

A writable conformer passes `checkSecretStoreConformance`
(Tests/DefaultsTests/Secrets/SecretStoreConformance.swift), as the in-memory
and Secret Service stores do.

<!-- check: internal -->
```swift
let store: any SecretStore = InMemorySecretStore()
let item = SecretItem(suite: "com.example.app", key: "apiToken")
try store.store(SecretBytes(text: "s3cr3t"), for: item)
print(try store.secret(for: item)?.data.count ?? 0) // 6
```
*/
protocol SecretStore: Sendable {
	/// The secret of `item`, or `nil` when it has none.
	func secret(for item: SecretItem) throws(Defaults.SecretError) -> SecretBytes?

	/// Stores `bytes` as the secret of `item`, replacing what it held.
	func store(_ bytes: SecretBytes, for item: SecretItem) throws(Defaults.SecretError)

	/// Removes the secret of `item`; removing a secret that is not there succeeds.
	func remove(_ item: SecretItem) throws(Defaults.SecretError)

	/**
	Calls `heard` (on a thread of the store's, never under a lock of the
	caller's) whenever a secret may have changed elsewhere, from now on;
	returns whether the store can tell at all. It must return at once: any
	connecting is done in the background.
	*/
	func hearChanges(_ heard: @escaping @Sendable () -> Void) -> Bool
}

extension SecretStore {
	/// Most stores cannot tell: a file, memory, a store without a daemon to signal.
	func hearChanges(_: @escaping @Sendable () -> Void) -> Bool {
		false
	}
}

/// Which secret: the suite's domain name and the key's name (the Secret Service's `suite` and `key` attributes).
struct SecretItem: Hashable, Sendable {
	let suite: String
	let key: String
}

/// A secret as a store holds it: bytes, and whether they are UTF-8 text (a `String` value) that a person may read in a keyring manager.
struct SecretBytes: Sendable, Equatable {
	let data: Data
	let isText: Bool

	init(data: Data, isText: Bool) {
		self.data = data
		self.isText = isText
	}

	init(text: String) {
		self.init(data: Data(text.utf8), isText: true)
	}
}
