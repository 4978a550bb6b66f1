#if Configuration
import Configuration
import Defaults
import Foundation

/**
A swift-configuration provider that reads one `UserDefaults` suite.

Put it in a `ConfigReader`'s providers and the suite becomes a durable, live
configuration source: an operator changes a value with `defaults write`,
another process of the service writes it, a sync remote delivers it, and
every reader sees it, and watchers are told at once — the library's own
change engine tells the provider, nothing polls.

```swift
import Configuration
import DefaultsConfiguration
import Foundation

let reader = ConfigReader(providers: [
	EnvironmentVariablesProvider(),
	DefaultsProvider(suite: UserDefaults(suiteName: "com.example.service")!),
])
let timeout = reader.double(forKey: "http.timeout", default: 30)
```

Configuration keys map to stored names as ``KeyMapping`` says (by default
`http.timeout` reads the `timeout` entry of the suite's `http` dictionary).
Stored values convert to the requested type as a user expects — an integer
reads as a double, a real number with no fraction as an integer — and a value
that cannot be the requested type (the string `"15"` asked for as an integer)
is reported as a ``TypeMismatch`` error: `ConfigReader` then logs it to its
access reporter and returns the default, it never crashes.

The values that configure the suite are read: what is stored in its file, a
launch argument, and what an administrator installs for every user or forces
(see the "Settings an administrator manages" article), by the library's
precedence. Defaults registered by `Defaults.Key` declarations and the global
domain are not configuration: a `ConfigReader` falls back to its own
`default:` instead.
*/
public struct DefaultsProvider: Sendable {
	/// The name the provider appears under in access logs: `DefaultsProvider[<name>]`, or `DefaultsProvider` without one.
	public let providerName: String

	let suite: Suite
	let lookup: ValueLookup

	/**
	Creates a provider over `suite`.

	```swift
	let provider = DefaultsProvider(
		suite: UserDefaults(suiteName: "com.example.service")!,
		keyMapping: .flat(separator: "_"),
		secretsSpecifier: .specific(["database_password"]),
		name: "service"
	)
	```

	- Parameters:
	  - suite: The suite to read. Its file is watched for other processes' writes from now on.
	  - keyMapping: How configuration keys name stored values (``KeyMapping/nested`` unless given).
	  - secretsSpecifier: Which values are secret, by their encoded key (`http.password` nested,
	    `http_password` flat): `ConfigReader` redacts them in access logs and descriptions.
	  - name: Shown in the provider's name, to tell several suites apart in access logs.
	*/
	public init(
		suite: UserDefaults = .standard,
		keyMapping: KeyMapping = .nested,
		secretsSpecifier: SecretsSpecifier<String, ConfigContent> = .none,
		name: String? = nil
	) {
		self.providerName = name.map { "DefaultsProvider[\($0)]" } ?? "DefaultsProvider"
		// Finding the suite starts watching its file: reads see other processes' writes (`defaults write`) from now on.
		self.suite = Suite.of(suite)
		self.lookup = ValueLookup(keyMapping: keyMapping, secrets: secretsSpecifier)
	}
}

extension DefaultsProvider: ConfigProvider {
	/**
	The value stored for `key`, converted to `type`: read from the suite now,
	one stored name at a time.

	```swift
	let result = try provider.value(forKey: ["http", "timeout"], type: .double)
	print(result.value?.content ?? "not set")
	```

	- Throws: ``TypeMismatch`` when the stored value cannot be read as `type`.
	*/
	public func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
		try lookup.result(for: key, type: type) { suite.configuredValue(forKey: $0) }
	}

	/**
	The same as ``value(forKey:type:)``: the suite is in memory, so there is nothing to wait for.

	```swift
	let result = try await provider.fetchValue(forKey: ["http", "timeout"], type: .double)
	```
	*/
	public func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws -> LookupResult {
		try value(forKey: key, type: type)
	}

	/**
	All the suite's values as they are now, read at once: a write made
	concurrently is either wholly in the snapshot or wholly absent from it.

	```swift
	let snapshot = provider.snapshot()
	let host = try snapshot.value(forKey: ["http", "host"], type: .string)
	let port = try snapshot.value(forKey: ["http", "port"], type: .int)   // from the same moment as host
	```
	*/
	public func snapshot() -> any ConfigSnapshot {
		currentSnapshot()
	}

	func currentSnapshot() -> DefaultsSnapshot {
		DefaultsSnapshot(providerName: providerName, values: suite.configuredValues(), lookup: lookup)
	}
}
#endif
