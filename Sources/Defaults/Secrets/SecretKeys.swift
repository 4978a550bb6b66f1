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
}
