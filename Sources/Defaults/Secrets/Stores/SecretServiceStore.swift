#if os(Linux)
import Foundation

/**
The freedesktop Secret Service (gnome-keyring, KWallet, KeePassXC) as a
secret store: the ``SecretServiceClient``, whose calls are bounded and typed,
with its errors told to the app as ``Defaults/SecretError`` (``SecretServiceError/secretError``).

Items are labelled "<app> – <key>" and carry the attributes `suite` and
`key`; a `String` is stored as `text/plain`, so Seahorse shows it.

<!-- check: internal -->
```swift
let store = SecretServiceStore(client: SecretServiceClient())
```
*/
struct SecretServiceStore: SecretStore {
	let client: SecretServiceClient

	func secret(for item: SecretItem) throws(Defaults.SecretError) -> SecretBytes? {
		do {
			return try client.lookup(suite: item.suite, key: item.key).map { SecretBytes(data: $0, isText: false) }
		} catch {
			throw error.secretError
		}
	}

	func store(_ bytes: SecretBytes, for item: SecretItem) throws(Defaults.SecretError) {
		do {
			try client.store(bytes.data, suite: item.suite, key: item.key, contentType: bytes.isText ? "text/plain" : "application/octet-stream")
		} catch {
			throw error.secretError
		}
	}

	func remove(_ item: SecretItem) throws(Defaults.SecretError) {
		do {
			try client.clear(suite: item.suite, key: item.key)
		} catch {
			throw error.secretError
		}
	}

	func hearChanges(_ heard: @escaping @Sendable () -> Void) -> Bool {
		SecretServiceSignals.shared.listen(heard)
	}
}
#endif
