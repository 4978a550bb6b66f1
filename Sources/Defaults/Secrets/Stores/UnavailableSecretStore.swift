import Foundation

/**
The store of a platform without a secret backend in this build: every call
throws ``Defaults/SecretError/unavailable(reason:)``, so a secret key reads its
default with a diagnostic and is never written anywhere in the clear.

The Keychain backend for Apple platforms (generic passwords, service = the
suite, account = the key) cannot be built or tested on the Linux machines
this package is developed on, so it is not part of this build.

<!-- check: internal -->
```swift
let store = UnavailableSecretStore(reason: "no Keychain backend in this build")
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
