#if canImport(Security)
import Foundation
import Security

/**
The Keychain as a secret store, on Apple platforms: one generic password per
secret key, its service the suite's name and its account the key's name,
labelled "<app> – <key>" as the Secret Service's items are, so a person
recognises it in Keychain Access.

Written against Apple's documented `SecItem` API but neither built nor tested:
this package is developed on Linux machines, where the Security framework does
not exist (see "Apple platforms" in the Secrets article).

The items are not synchronizable (`kSecAttrSynchronizable` is left unset), so
iCloud Keychain never carries them, as no sync path of the library does. A
Keychain call answers from the local security daemon; the library does not
bound it further. A locked device (`errSecInteractionNotAllowed`) is
``Defaults/SecretError/locked``, told apart from "no value".

<!-- check: internal -->
```swift
let store = KeychainSecretStore()
try store.store(SecretBytes(text: "s3cr3t"), for: SecretItem(suite: "com.example.app", key: "apiToken"))
```
*/
struct KeychainSecretStore: SecretStore {
	/// The application's name in each item's label ("<app> – <key>").
	let applicationName: String

	init(applicationName: String = ProcessInfo.processInfo.processName) {
		self.applicationName = applicationName
	}

	func secret(for item: SecretItem) throws(Defaults.SecretError) -> SecretBytes? {
		var query = Self.query(for: item)
		query[kSecReturnData as String] = true
		query[kSecMatchLimit as String] = kSecMatchLimitOne
		var result: CFTypeRef?
		let status = SecItemCopyMatching(query as CFDictionary, &result)
		if status == errSecItemNotFound {
			return nil
		}

		try Self.check(status, "read")
		guard let data = result as? Data else {
			throw .failed(reason: "the Keychain item of \(item.key) has no data")
		}

		return SecretBytes(data: data, isText: false)
	}

	func store(_ bytes: SecretBytes, for item: SecretItem) throws(Defaults.SecretError) {
		let query = Self.query(for: item)
		let changes: [String: Any] = [
			kSecValueData as String: bytes.data,
			kSecAttrLabel as String: "\(applicationName) – \(item.key)",
		]
		var status = SecItemUpdate(query as CFDictionary, changes as CFDictionary)
		if status == errSecItemNotFound {
			status = SecItemAdd(query.merging(changes, uniquingKeysWith: { $1 }) as CFDictionary, nil)
			// Another process added the item between the two calls: it is there now, so update it.
			if status == errSecDuplicateItem {
				status = SecItemUpdate(query as CFDictionary, changes as CFDictionary)
			}
		}

		try Self.check(status, "store")
	}

	func remove(_ item: SecretItem) throws(Defaults.SecretError) {
		let status = SecItemDelete(Self.query(for: item) as CFDictionary)
		if status == errSecItemNotFound {
			return
		}

		try Self.check(status, "remove")
	}

	/// The item of `item`: a generic password, service = the suite, account = the key.
	private static func query(for item: SecretItem) -> [String: Any] {
		[
			kSecClass as String: kSecClassGenericPassword,
			kSecAttrService as String: item.suite,
			kSecAttrAccount as String: item.key,
		]
	}

	private static func check(_ status: OSStatus, _ operation: String) throws(Defaults.SecretError) {
		switch status {
		case errSecSuccess:
			return
		case errSecInteractionNotAllowed:
			throw .locked
		default:
			let message = SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "no message"
			throw .failed(reason: "the Keychain could not \(operation) the item: OSStatus \(status) (\(message))")
		}
	}
}
#endif
