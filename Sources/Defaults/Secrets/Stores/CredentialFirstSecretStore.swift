import Foundation

/**
The store of a suite in a running app or service: a systemd credential when
the process was given one for the key, else the desktop's store.

A present credential wins, for reads and writes alike: the key reads the
credential, and a write or removal is refused as read-only rather than going
to the keyring, where the next read would not see it. A key without a
credential is the desktop store's (the Secret Service on Linux).

<!-- check: internal -->
```swift
let store = CredentialFirstSecretStore(credentials: CredentialSecretStore(environment: [:]), desktop: InMemorySecretStore())
```
*/
struct CredentialFirstSecretStore: SecretStore {
	let credentials: CredentialSecretStore
	let desktop: any SecretStore

	func secret(for item: SecretItem) throws(Defaults.SecretError) -> SecretBytes? {
		if let credential = try credentials.secret(for: item) {
			return credential
		}

		return try desktop.secret(for: item)
	}

	func store(_ bytes: SecretBytes, for item: SecretItem) throws(Defaults.SecretError) {
		if credentials.provides(item) {
			try credentials.store(bytes, for: item)
		}

		try desktop.store(bytes, for: item)
	}

	func remove(_ item: SecretItem) throws(Defaults.SecretError) {
		if credentials.provides(item) {
			try credentials.remove(item)
		}

		try desktop.remove(item)
	}

	/// Only the desktop store can change under the process: credentials are fixed for its lifetime.
	func hearChanges(_ heard: @escaping @Sendable () -> Void) -> Bool {
		desktop.hearChanges(heard)
	}
}
