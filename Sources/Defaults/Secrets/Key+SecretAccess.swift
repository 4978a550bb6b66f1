import Foundation

/// The typed API of a secret key: the same value as `Defaults[key]`, with the reason when the store cannot answer.
extension Defaults.Key {
	/**
	The secret's value, or the key's default when none is stored; throws why
	it could not be read, where `Defaults[key]` returns the default.

	From memory after the key's first read; otherwise it asks the store and
	blocks the calling thread for as long as the store takes (at most about a
	second): on the main actor, use ``loadSecret()`` instead.

	```swift
	extension Defaults.Keys {
		static let apiToken = Key<String?>("apiToken", secret: true)
	}

	do {
		let token = try Defaults.Keys.apiToken.readSecret()
		print(token == nil ? "not signed in" : "signed in")
	} catch .locked {
		print("Unlock your keyring to sign in")
	} catch {
		print("No token: \(error)")
	}
	```
	*/
	public func readSecret() throws(Defaults.SecretError) -> Value {
		let suite = try secretSuite()
		let stored = suite.secrets.isKnown(name) ? suite.secrets.read(name, reporting: false) : suite.secrets.load(name, reporting: false)
		return try value(fromSecret: stored.get(), in: suite)
	}

	/**
	Asks the secret store for the secret's value on a thread of its own, so
	the caller's actor (the main actor) never waits on the store; returns the
	value, or the key's default when none is stored, and throws why it could
	not be read.

	It always asks the store, even after the key's first read: when another
	process changed the secret, the value in memory is replaced and the key's
	observers hear the change.

	```swift
	extension Defaults.Keys {
		static let apiToken = Key<String?>("apiToken", secret: true)
	}

	@MainActor
	func signIn() async {
		do {
			let token = try await Defaults.Keys.apiToken.loadSecret()
			print(token == nil ? "not signed in" : "signed in")
		} catch {
			print("No token: \(error)")
		}
	}
	```
	*/
	public func loadSecret() async throws(Defaults.SecretError) -> Value {
		let suite = try secretSuite()
		let secrets = suite.secrets
		let name = name
		let loaded = await withCheckedContinuation { (continuation: CheckedContinuation<Result<PropertyListValue?, Defaults.SecretError>, Never>) in
			DispatchQueue.global().async {
				continuation.resume(returning: secrets.load(name, reporting: false))
			}
		}

		return try value(fromSecret: loaded.get(), in: suite)
	}

	/**
	Writes the secret to the store, then keeps it in memory and tells the
	key's observers; a `nil` optional removes it. Throws why it could not be
	written (also reported as a diagnostic), and then nothing is kept,
	anywhere.

	Blocks the calling thread for as long as the store takes (at most about a
	second).

	```swift
	extension Defaults.Keys {
		static let apiToken = Key<String?>("apiToken", secret: true)
	}

	do {
		try Defaults.Keys.apiToken.writeSecret("s3cr3t")
	} catch .readOnly(let credential) {
		print("This service's token is the credential \(credential)")
	} catch {
		print("The token was not saved: \(error)")
	}
	```
	*/
	public func writeSecret(_ value: Value) throws(Defaults.SecretError) {
		let suite = try secretSuite()
		try suite.secrets.change(name, to: encodedSecret(value).get(), reporting: true)
	}

	/**
	Removes the secret from the store and memory, so the key reads its
	default; throws why it could not be removed (also reported as a
	diagnostic).

	```swift
	extension Defaults.Keys {
		static let apiToken = Key<String?>("apiToken", secret: true)
	}

	func signOut() {
		do {
			try Defaults.Keys.apiToken.removeSecret()
		} catch {
			print("The token is still stored: \(error)")
		}
	}
	```
	*/
	public func removeSecret() throws(Defaults.SecretError) {
		try secretSuite().secrets.change(name, to: nil, reporting: true)
	}

	/// The suite object of a secret key (an isolated test's copy inside one); throws for a key that is not a secret.
	private func secretSuite() throws(Defaults.SecretError) -> Suite {
		guard isSecret else {
			throw .failed(reason: "\"\(name)\" is not a secret key: declare it with secret: true")
		}

		return suiteObject
	}

	private func value(fromSecret found: PropertyListValue?, in suite: Suite) throws(Defaults.SecretError) -> Value {
		guard let stored = found ?? adoptPlainValue(in: suite) else {
			return defaultValue
		}

		return try decodedSecret(stored).get()
	}
}
