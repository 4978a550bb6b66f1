#if os(Linux)
import Foundation

/// A libsecret `SecretSchema`, made once per client and immutable after (libsecret only reads it), released with the client.
final class SecretServiceSchema: @unchecked Sendable {
	// `@unchecked`: both properties are immutable, and libsecret only reads a schema it is given.
	let pointer: SecretServiceLibrary.Pointer
	private let library: SecretServiceLibrary

	private init(pointer: SecretServiceLibrary.Pointer, library: SecretServiceLibrary) {
		self.pointer = pointer
		self.library = library
	}

	deinit {
		library.schemaUnref(pointer)
	}

	/// A schema named `name` with the string attributes `suite` and `key`.
	static func make(name: String, library: SecretServiceLibrary) -> Result<SecretServiceSchema, SecretServiceError> {
		// SECRET_SCHEMA_ATTRIBUTE_STRING is 0: a NULL value in the table of names and types.
		guard let types = library.stringTable([("suite", nil), ("key", nil)]) else {
			return .failure(.failed(message: "GLib could not make a hash table"))
		}

		defer { library.hashTableUnref(types) }
		// SECRET_SCHEMA_NONE: items are found by the schema's name as well as by their attributes.
		guard let schema = library.schemaNew(name, 0, types) else {
			return .failure(.failed(message: "libsecret refused the schema \(name)"))
		}

		return .success(SecretServiceSchema(pointer: schema, library: library))
	}
}
#endif
