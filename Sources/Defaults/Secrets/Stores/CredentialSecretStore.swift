import Foundation

/**
systemd credentials (`LoadCredential=`, `SetCredential=`, `ImportCredential=`)
as a read-only secret store: the credential named like the key, the file
`$CREDENTIALS_DIRECTORY/<key>`, which systemd makes readable by the service
only.

A key with no such file has no credential (`nil`), so the store behind
(``CredentialFirstSecretStore``) is asked. Writing or removing a key that
has one throws ``Defaults/SecretError/readOnly(credential:)``: the unit file
decides the value. The file's bytes are the value, exactly as given (a
trailing newline is part of it).

<!-- check: internal -->
```swift
let credentials = CredentialSecretStore(environment: ProcessInfo.processInfo.environment)
print(credentials.folder?.path ?? "not a service with credentials")
```
*/
struct CredentialSecretStore: SecretStore {
	/// `$CREDENTIALS_DIRECTORY`, read once: systemd sets it before the service starts, and it never changes.
	let folder: URL?

	init(environment: [String: String]) {
		folder = environment["CREDENTIALS_DIRECTORY"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true) : nil }
	}

	/// The credential's file for `item`, when the process has credentials and the key's name is one file's name.
	func file(for item: SecretItem) -> URL? {
		guard let folder, !item.key.isEmpty, !item.key.contains("/"), item.key != ".", item.key != ".." else {
			return nil
		}

		return folder.appendingPathComponent(item.key, isDirectory: false)
	}

	func secret(for item: SecretItem) throws(Defaults.SecretError) -> SecretBytes? {
		guard let file = file(for: item) else {
			return nil
		}

		do {
			return try POSIXFileSystem().read(file).map { SecretBytes(data: $0, isText: false) }
		} catch {
			throw .failed(reason: "the credential \(file.path) cannot be read: \(error)")
		}
	}

	/// Whether `item` is given as a credential: then the unit file, not the app, decides its value.
	func provides(_ item: SecretItem) -> Bool {
		guard let file = file(for: item) else {
			return false
		}

		return POSIXFileSystem().identity(of: file) != nil
	}

	func store(_ bytes: SecretBytes, for item: SecretItem) throws(Defaults.SecretError) {
		try refuseWrite(of: item)
	}

	func remove(_ item: SecretItem) throws(Defaults.SecretError) {
		try refuseWrite(of: item)
	}

	private func refuseWrite(of item: SecretItem) throws(Defaults.SecretError) {
		throw .readOnly(credential: file(for: item)?.path ?? "$CREDENTIALS_DIRECTORY/\(item.key)")
	}
}
