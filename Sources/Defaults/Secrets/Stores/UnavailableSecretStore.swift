import Foundation

/**
The store of a platform the library has no secret backend for (neither
Linux's Secret Service nor Apple's Keychain: Windows, Android): every call
throws ``Defaults/SecretError/unavailable(reason:)``, so a secret key reads its
default with a diagnostic and is never written anywhere in the clear.

<!-- check: internal -->
```swift
let store = UnavailableSecretStore(reason: "the library has no secret store for this platform")
```
*/
struct UnavailableSecretStore: SecretStore {
	let reason: String

	func secret(for item: SecretItem) throws(Defaults.SecretError) -> SecretBytes? {
		throw .unavailable(reason: reason)
	}

	func store(_ bytes: SecretBytes, for item: SecretItem) throws(Defaults.SecretError) {
		throw .unavailable(reason: reason)
	}

	func remove(_ item: SecretItem) throws(Defaults.SecretError) {
		throw .unavailable(reason: reason)
	}
}
