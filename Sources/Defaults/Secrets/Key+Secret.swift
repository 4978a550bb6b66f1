import Foundation

extension Defaults.Key {
	/**
	Creates a key that holds a secret (an API token, a password, a licence
	key) when `secret` is `true`: its value lives in the system's secret store
	and in memory, never in the suite's file, exports, sync, the `defaults`
	tool's output, diagnostics or logs. With `secret: false` it is an
	ordinary key. A secret is never synced, so there is no `iCloud:` here.

	Read and write it as any key; the first read asks the store (within about
	a second), later reads come from memory. See <doc:Secrets> for the stores
	and for what a read returns when the store cannot answer.

	```swift
	extension Defaults.Keys {
		static let licence = Key<String>("licence", default: "", secret: true)
	}

	Defaults[.licence] = "ABCD-1234"
	```
	*/
	public convenience init(_ name: String, default defaultValue: Value, suite: UserDefaults = .standard, secret: Bool) {
		// A secret's default is not registered: registered defaults are visible to raw `UserDefaults` and every suite.
		self.init(
			name: name,
			suite: suite,
			iCloud: false,
			previousNames: [],
			defaultValueGetter: { defaultValue },
			registersDefault: !secret,
			isSecret: secret
		)
	}

	/**
	Creates a key that holds a secret when `secret` is `true`, whose default
	is computed on each read that finds no secret stored.

	```swift
	extension Defaults.Keys {
		static let deviceToken = Key<String>("deviceToken", secret: true) { UUID().uuidString }
	}
	```
	*/
	public convenience init(_ name: String, suite: UserDefaults = .standard, secret: Bool, default defaultValueGetter: @escaping () -> Value) {
		self.init(name: name, suite: suite, iCloud: false, previousNames: [], defaultValueGetter: defaultValueGetter, registersDefault: false, isSecret: secret)
	}

	/**
	Creates an optional key, `nil` by default, that holds a secret when
	`secret` is `true`. Setting it to `nil` removes the secret from the store.

	```swift
	extension Defaults.Keys {
		static let apiToken = Key<String?>("apiToken", secret: true)
	}

	Defaults[.apiToken] = "s3cr3t"
	Defaults[.apiToken] = nil // removes it from the keyring
	```
	*/
	public convenience init<T>(_ name: String, suite: UserDefaults = .standard, secret: Bool) where Value == T? {
		self.init(name, default: nil, suite: suite, secret: secret)
	}
}
