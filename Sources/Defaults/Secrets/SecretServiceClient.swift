#if os(Linux)
import Foundation

/**
The freedesktop Secret Service (gnome-keyring, KWallet, KeePassXC) through
libsecret, loaded at run time: reads, writes and removes one secret per
suite and key.

Each secret is an item of the default collection (the login keyring) with
the schema `org.swift.Defaults` and two attributes, `suite` and `key`, and
a label a person recognises in Seahorse: "<app> – <key>".

Every call is bounded by ``timeout`` (see `SecretServiceCall`) and fails
fast and typed (``SecretServiceError``):
- no libsecret, no session bus, a bus that refuses the connection, or no
  Secret Service on it → `unavailable`, in milliseconds;
- a locked default collection → `locked`, never mistaken for a missing
  value: libsecret's lookup returns nothing for both, so the client asks
  the collection's `Locked` property itself, first, which also keeps
  libsecret from raising an unlock prompt;
- a daemon that does not answer → `timedOut` after ``timeout``; the next
  call works once the daemon answers again. A store that timed out may
  still take effect when the daemon wakes up.

Calls may come from any thread at once; the client keeps no mutable state of
its own (libsecret's shared service and GLib's session bus connection are
thread-safe). The calls block: callers on the main actor call them from a
task of their own.
*/
package final class SecretServiceClient: Sendable {
	/// The schema of this library's items; its name is also stored with each item, as `xdg:schema`.
	package static let defaultSchemaName = "org.swift.Defaults"

	/// The application's name in each item's label ("<app> – <key>").
	package let applicationName: String

	/// How long one call may take before it is cancelled.
	package let timeout: Duration

	/// The schema name the items are stored and found under.
	package let schemaName: String

	private let loadedSchema: Result<SecretServiceSchema, SecretServiceError>

	package init(
		applicationName: String = ProcessInfo.processInfo.processName,
		timeout: Duration = .seconds(1),
		schemaName: String = SecretServiceClient.defaultSchemaName
	) {
		self.applicationName = applicationName
		self.timeout = timeout
		self.schemaName = schemaName
		self.loadedSchema = SecretServiceLibrary.shared.flatMap { SecretServiceSchema.make(name: schemaName, library: $0) }
	}

	/// The label of the item that holds `key`, as a person sees it in Seahorse.
	package func label(forKey key: String) -> String {
		"\(applicationName) – \(key)"
	}

	// MARK: Reading, writing, removing

	/// Whether the default collection is there to read and write: `false` when there is none; a locked one throws ``SecretServiceError/locked``.
	private static func isOpen(_ session: SecretServiceSession) throws(SecretServiceError) -> Bool {
		switch try session.defaultCollection() {
		case .missing:
			false
		case .locked:
			throw .locked
		case .unlocked:
			true
		}
	}

	/// The secret stored for `key` of `suite`, or `nil` when there is none (a locked keyring throws ``SecretServiceError/locked``).
	package func lookup(suite: String, key: String) throws(SecretServiceError) -> Data? {
		try perform { session throws(SecretServiceError) -> Data? in
			guard try Self.isOpen(session) else {
				return nil
			}

			let attributes = try session.attributes(suite: suite, key: key)
			defer { session.library.hashTableUnref(attributes) }
			return try session.withService { service throws(SecretServiceError) -> Data? in
				var error: SecretServiceLibrary.Pointer?
				let list = session.library.serviceSearch(service, schema, attributes, Self.searchLoadSecrets, session.call.cancellable, &error)
				if let failure = session.library.takeError(error) {
					throw session.mapped(failure)
				}

				let items = session.library.listElements(list)
				defer {
					items.forEach { session.library.objectUnref($0) }
					session.library.listFree(list)
				}
				var sawLocked = false
				for item in items {
					guard session.library.itemGetLocked(item) == 0, let value = session.library.itemGetSecret(item) else {
						sawLocked = true
						continue
					}

					defer { session.library.valueUnref(value) }
					var length = 0
					guard let bytes = session.library.valueGet(value, &length) else {
						return Data()
					}

					return Data(bytes: bytes, count: length)
				}

				if sawLocked {
					throw .locked
				}

				return nil
			}
		}
	}

	/// The secret stored for `key` of `suite` as UTF-8 text, or `nil` when there is none.
	package func lookupString(suite: String, key: String) throws(SecretServiceError) -> String? {
		try lookup(suite: suite, key: key).map { String(decoding: $0, as: UTF8.self) }
	}

	/// Stores `data` for `key` of `suite` in the default collection, replacing the item that held it; `label` defaults to ``label(forKey:)``.
	package func store(_ data: Data, suite: String, key: String, label: String? = nil, contentType: String = "application/octet-stream") throws(SecretServiceError) {
		try perform { session throws(SecretServiceError) in
			guard try Self.isOpen(session) else {
				throw .unavailable(reason: "the Secret Service has no default collection (no login keyring) to store in")
			}

			let attributes = try session.attributes(suite: suite, key: key)
			defer { session.library.hashTableUnref(attributes) }
			let value = data.withUnsafeBytes { buffer in
				// secret_value_new copies the bytes (into non-pageable memory where it can).
				withUnsafeBytes(of: UInt8(0)) { empty in
					session.library.valueNew(buffer.baseAddress ?? empty.baseAddress!, buffer.count, contentType)
				}
			}
			guard let value else {
				throw .failed(message: "libsecret could not hold a value of \(data.count) bytes")
			}

			defer { session.library.valueUnref(value) }
			try session.withService { service throws(SecretServiceError) in
				var error: SecretServiceLibrary.Pointer?
				let stored = session.library.serviceStore(
					service, schema, attributes, "default", label ?? self.label(forKey: key), value, session.call.cancellable, &error
				)
				if let failure = session.library.takeError(error) {
					throw session.mapped(failure)
				}

				if stored == 0 {
					throw .failed(message: "the item for \(key) was not stored")
				}
			}
		}
	}

	/// Stores `text` as UTF-8 for `key` of `suite`.
	package func store(_ text: String, suite: String, key: String, label: String? = nil) throws(SecretServiceError) {
		try store(Data(text.utf8), suite: suite, key: key, label: label, contentType: "text/plain")
	}

	/// Removes the secret of `key` of `suite`; returns whether there was one.
	@discardableResult
	package func clear(suite: String, key: String) throws(SecretServiceError) -> Bool {
		try perform { session throws(SecretServiceError) in
			guard try Self.isOpen(session) else {
				return false
			}

			let attributes = try session.attributes(suite: suite, key: key)
			defer { session.library.hashTableUnref(attributes) }
			return try session.withService { service throws(SecretServiceError) in
				var error: SecretServiceLibrary.Pointer?
				let removed = session.library.serviceClear(service, schema, attributes, session.call.cancellable, &error)
				if let failure = session.library.takeError(error) {
					throw session.mapped(failure)
				}

				return removed != 0
			}
		}
	}

	// MARK: The keyring's state

	/// Whether the default collection is locked (`nil`: there is none).
	package func isLocked() throws(SecretServiceError) -> Bool? {
		try perform { session throws(SecretServiceError) in
			switch try session.defaultCollection() {
			case .missing:
				nil
			case .locked:
				true
			case .unlocked:
				false
			}
		}
	}

	/// Throws why the Secret Service cannot be used now, or returns when it answers.
	package func checkAvailable() throws(SecretServiceError) {
		_ = try isLocked()
	}

	/// Locks the default collection, as a person does from Seahorse (unlocking needs the person's password: a prompt).
	package func lockDefaultCollection() throws(SecretServiceError) {
		try perform { session throws(SecretServiceError) in
			guard let path = try session.defaultCollectionPath() else {
				return
			}

			let reply = try path.withCString { path in
				var paths: [UnsafePointer<CChar>?] = [path, nil]
				return Result { () throws(SecretServiceError) in
					try session.callService(
						"/org/freedesktop/secrets",
						interface: "org.freedesktop.Secret.Service",
						method: "Lock",
						arguments: [session.library.variantNewObjectPaths(&paths, 1)]
					)
				}
			}.get()
			session.library.variantUnref(reply)
		}
	}

	// MARK: One call

	// SECRET_SEARCH_LOAD_SECRETS, and not SECRET_SEARCH_UNLOCK: a search never raises an unlock prompt.
	private static let searchLoadSecrets: UInt32 = 1 << 3

	private var schema: SecretServiceLibrary.Pointer? {
		try? loadedSchema.get().pointer
	}

	/**
	Runs `body` with a session bus connection, bounded by ``timeout``.

	libsecret keeps one `SecretService` for the process, bound to the daemon
	that answered first; a daemon that was killed, restarted or replaced (a
	new login) knows neither that name nor its session. So after a failure
	other than a timeout or a locked keyring, the shared service is dropped
	and `body` runs once more, within the same deadline: reading, storing
	and clearing by attributes can be repeated safely.
	*/
	private func perform<Result>(_ body: (SecretServiceSession) throws(SecretServiceError) -> Result) throws(SecretServiceError) -> Result {
		let library = try SecretServiceLibrary.shared.get()
		_ = try loadedSchema.get()
		let call = try SecretServiceCall(library: library, timeout: timeout)
		defer { call.finish() }
		var isRetry = false
		while true {
			// No bus: nothing to retry.
			let session = try SecretServiceSession.connect(call: call)
			defer { session.close() }
			do {
				return try body(session)
			} catch {
				switch error {
				case .timedOut, .locked:
					throw error
				case .unavailable, .failed:
					library.serviceDisconnect()
					guard !isRetry, !call.didTimeOut else {
						throw error
					}

					isRetry = true
				}
			}
		}
	}
}
#endif
