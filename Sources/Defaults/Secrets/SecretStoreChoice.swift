import Foundation

/**
Which secret store a suite uses, decided once when the suite is made: the
one place test isolation hooks in for secrets, as it does for values.

A suite that lives in memory (an isolated test's copy of a suite, an
`InMemoryDefaults`) keeps its secrets in memory too, so no test reaches the
real keyring; every other suite uses the system's: a systemd credential when
the process has one for the key, else the Secret Service (Linux) or the Keychain (Apple platforms). The store
itself is made at the suite's first secret access, so a process that
declares no secret never loads libsecret.

<!-- check: internal -->
```swift
let store = SecretStoreChoice(for: .inMemory(UUID())).makeStore() // an InMemorySecretStore
```
*/
enum SecretStoreChoice: Sendable, Equatable {
	case system
	case inMemory

	init(for identity: SuiteIdentity) {
		if case .inMemory = identity {
			self = .inMemory
		} else {
			self = .system
		}
	}

	func makeStore() -> any SecretStore {
		switch self {
		case .inMemory:
			InMemorySecretStore()
		case .system:
			CredentialFirstSecretStore(credentials: CredentialSecretStore(environment: ProcessInfo.processInfo.environment), desktop: Self.desktopStore())
		}
	}

	private static func desktopStore() -> any SecretStore {
		#if os(Linux)
		SecretServiceStore(client: SecretServiceClient())
		#elseif canImport(Security)
		KeychainSecretStore()
		#else
		UnavailableSecretStore(reason: "the library has no secret store for this platform")
		#endif
	}
}
