import Foundation

/// The guard of every path that copies keys' values elsewhere: secret keys are left out, with a diagnostic.
enum SecretKeys {
	/**
	`keys` without the secret ones, each left out reported once per call: a
	secret never reaches `path` (sync to iCloud, a shared folder or
	PostgreSQL), whatever asked for it.
	*/
	static func withoutSecrets(_ keys: [Defaults._AnyKey], from path: String) -> [Defaults._AnyKey] {
		guard keys.contains(where: \.isSecret) else {
			return keys
		}

		for key in keys where key.isSecret {
			DiagnosticReporter.report(
				.secretRefused,
				key: key.name,
				suite: key.processWideSuite.displayName,
				"\"\(key.name)\" is a secret key: it is left out of \(path), which would copy its value out of the secret store"
			)
		}

		return keys.filter { !$0.isSecret }
	}

	/**
	`values` without those of the secret keys among `declared`, each left out
	reported: a value a settings file holds under a secret key's name would
	otherwise be stored in the clear by `path` (an import), where the key
	never reads it.
	*/
	static func withoutValuesOfSecrets<Value>(_ values: [String: Value], declared: [Defaults._AnyKey], into path: String) -> [String: Value] {
		let secrets = declared.filter { $0.isSecret && values[$0.name] != nil }
		guard !secrets.isEmpty else {
			return values
		}

		var kept = values
		for key in secrets {
			kept[key.name] = nil
			DiagnosticReporter.report(
				.secretRefused,
				key: key.name,
				suite: key.processWideSuite.displayName,
				"\"\(key.name)\" is a secret key: its value in \(path) was left out, as it would be stored in the clear; write it to the key instead"
			)
		}

		return kept
	}
}
