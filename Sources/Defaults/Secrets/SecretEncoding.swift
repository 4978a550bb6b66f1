import Foundation

/**
A secret's stored form: the property-list object the key's codec made, as
bytes a secret store keeps.

A `String` is stored as its UTF-8 text, so a person who opens the item in
Seahorse (or `secret-tool lookup`) reads it, and a systemd credential
written by hand (`SetCredential=apiToken:s3cr3t`) reads as that text. Every
other value (a number, a `Codable` struct's JSON string is a `String`
already, `Data`, an array…) is a binary property list, read back by the
library's own reader, which refuses what no setting holds. The two never
collide: a string that itself starts with the binary property list's magic
`bplist` is stored as a binary property list too.

<!-- check: internal -->
```swift
let bytes = SecretEncoding.bytes(of: .string("s3cr3t"))   // UTF-8 text
print(SecretEncoding.value(of: bytes.data) == .string("s3cr3t")) // true
```
*/
enum SecretEncoding {
	static func bytes(of value: PropertyListValue) -> SecretBytes {
		if case .string(let text) = value, !text.utf8.starts(with: "bplist".utf8) {
			return SecretBytes(text: text)
		}

		return SecretBytes(data: BinaryPropertyListWriter.encode(value), isText: false)
	}

	/// What `data` holds: a binary property list's value, else UTF-8 text as a string, else the bytes as `Data` (a binary credential).
	static func value(of data: Data) -> PropertyListValue? {
		if PropertyListValue.isBinaryPropertyList(data) {
			return BinaryPropertyListReader.decode(data)
		}

		if let text = String(validating: data, as: UTF8.self) {
			return .string(text)
		}

		return .data(data)
	}
}
