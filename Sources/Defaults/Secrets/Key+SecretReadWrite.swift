import Foundation

/// The untyped API's way to a secret key (`Defaults[key]`, `@Default`, observers' initial reads): never throws; a failure reads as the default, with a diagnostic.
extension Defaults.Key {
	/**
	The secret's value, for a read that did not find the key's last read
	current at `version` (memory's, ``SuiteSecrets/currentVersion``): from
	memory after the first read; the default when none is stored, or when the
	store fails (reported once per reason). Kept out of line: ordinary reads
	pay nothing for it.
	*/
	@inline(never)
	func readSecret(in suite: Suite, at version: UInt64) -> Value {
		guard case .success(let found) = suite.secrets.read(name, reporting: true), let stored = found ?? adoptPlainValue(in: suite) else {
			return defaultValue
		}

		switch decodedSecret(stored) {
		case .success(let value):
			// Only a value memory holds: the default that a missing or failing secret reads as may change with no new version.
			if found != nil {
				remember(value, at: version)
			}

			return value
		case .failure:
			suite.secrets.reportOnce(name, "is stored in a form that does not read as \(TypeName.withArticle(Value.self)), so it reads as its default")
			return defaultValue
		}
	}

	/// Writes the secret to the store, then memory; a `nil` optional removes it. A refusal is reported and keeps nothing.
	func writeSecret(_ value: Value, in suite: Suite) {
		switch encodedSecret(value) {
		case .success(let stored):
			try? suite.secrets.change(name, to: stored, reporting: true)
		case .failure(let error):
			suite.secrets.reportOnce(name, "was not written, and is kept nowhere: \(error)")
		}
	}

	/// The stored form of `value` (`nil`: none, a `nil` optional); the error names the type, never the value.
	func encodedSecret(_ value: Value) -> Result<PropertyListValue?, Defaults.SecretError> {
		do {
			switch try codec.encode(value) {
			case .absent:
				return .success(nil)
			case .object(let object):
				guard let stored = PropertyListValue(object) else {
					return .failure(.failed(reason: "a value of \(Value.self) is not a property list"))
				}

				return .success(stored)
			}
		} catch {
			return .failure(.failed(reason: "a value of \(Value.self) cannot be encoded"))
		}
	}

	/**
	The key's value from a secret's stored form. A credential is text written
	by a person: when it does not decode as it is, it is read the way a launch
	argument typed by hand is (`42` for an `Int`, `true` for a `Bool`).
	*/
	func decodedSecret(_ stored: PropertyListValue) -> Result<Value, Defaults.SecretError> {
		let object = stored.object
		if let value = try? codec.decode(object) {
			return .success(value)
		}

		if case .string(let text) = stored {
			for interpretation in LaunchArgumentReading.interpretations(of: text) {
				if let value = try? codec.decode(interpretation) {
					return .success(value)
				}
			}
		}

		return .failure(.failed(reason: "the stored secret does not read as \(TypeName.withArticle(Value.self))"))
	}
}

extension Defaults._AnyKey {
	/// Whether the secret store holds a value for the key, as a read finds it (a failure, reported, counts as none).
	func hasSecret(in suite: Suite) -> Bool {
		guard case .success(let found) = suite.secrets.read(name, reporting: true) else {
			return false
		}

		return found != nil || adoptPlainValue(in: suite) != nil
	}

	/// Removes the secret from the store and memory; a refusal is reported, and the secret stays as it was.
	func resetSecret(in suite: Suite) {
		try? suite.secrets.change(name, to: nil, reporting: true)
	}
}
