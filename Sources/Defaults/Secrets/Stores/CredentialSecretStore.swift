import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/**
systemd credentials (`LoadCredential=`, `SetCredential=`, `ImportCredential=`)
as a read-only secret store: the credential named like the key, the file
`$CREDENTIALS_DIRECTORY/<key>`, which systemd makes readable by the service
only.

A key with nothing at that path has no credential (`nil`), so the store
behind (``CredentialFirstSecretStore``) is asked. Anything there (a file, a
symbolic link, even a broken one, something unreadable) makes it the key's
credential: reading it and writing it agree, and a credential that cannot be
read fails rather than falling back to the keyring. Writing or removing a
key that has one throws ``Defaults/SecretError/readOnly(credential:)``: the
unit file decides the value. The file's bytes are the value, exactly as
given (a trailing newline is part of it); only a regular file is read, never
a FIFO or a device, and no more than ``FileLimits/maximumFileSize``.

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
		guard let file = file(for: item), Self.hasEntry(file) else {
			return nil
		}

		let data: Data?
		do {
			data = try POSIXFileSystem().read(file)
		} catch {
			throw .failed(reason: "the credential \(file.path) cannot be read: \(error)")
		}

		// Something is there, yet it opens as nothing: a symbolic link to a file that does not exist.
		guard let data else {
			throw .failed(reason: "the credential \(file.path) is a symbolic link to nothing")
		}

		return SecretBytes(data: data, isText: false)
	}

	/// Whether `item` is given as a credential: then the unit file, not the app, decides its value.
	func provides(_ item: SecretItem) -> Bool {
		file(for: item).map(Self.hasEntry) ?? false
	}

	/**
	Whether anything is at `file`, the link itself rather than what it points
	to, as `provides` and `secret(for:)` must agree: a credential that a link
	loop or a broken link makes unreadable is still the key's, so a write must
	not go to the keyring, where no read would find it. A missing folder, a
	file where the folder should be, or a key's name too long for a file's
	means no credential.
	*/
	private static func hasEntry(_ file: URL) -> Bool {
		var info = stat()
		if lstat(file.path, &info) == 0 {
			return true
		}

		return errno != ENOENT && errno != ENOTDIR && errno != ENAMETOOLONG
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
