@_exported import Defaults

/**
Backs a property of an `@Observable` class with a `Defaults` key.

Reading the property is tracked by the Observation framework; assigning it
writes the key; and a change to the key made anywhere (another object,
`Defaults[key] = …`, a reset, another process once seen) invalidates the
observers of the property. Mark the property `@ObservationIgnored` so
`@Observable` leaves it to this macro, and give it a type but no value:

```swift
import Defaults
import DefaultsMacros
import Observation

extension Defaults.Keys {
	static let hasUnicorn = Key<Bool>("hasUnicorn", default: false)
}

@Observable
final class UnicornManager {
	@ObservableDefault(.hasUnicorn)
	@ObservationIgnored
	var hasUnicorn: Bool
}
```

A write made with a raw `UserDefaults` setter (`set(_:forKey:)`) does not
invalidate it on Linux, which has no key-value observing to notice one: write
through the key (`Defaults[.hasUnicorn] = …` or `UserDefaults.standard[.hasUnicorn] = …`).
*/
@attached(accessor, names: named(get), named(set))
@attached(peer, names: prefixed(_defaultsLink_))
public macro ObservableDefault<Value: Defaults.Serializable>(_ key: Defaults.Key<Value>) = #externalMacro(
	module: "DefaultsMacrosPlugin",
	type: "ObservableDefaultMacro"
)

/// Written without a key, the macro reports what to write instead.
@attached(accessor, names: named(get), named(set))
@attached(peer, names: prefixed(_defaultsLink_))
public macro ObservableDefault() = #externalMacro(
	module: "DefaultsMacrosPlugin",
	type: "ObservableDefaultMacro"
)
