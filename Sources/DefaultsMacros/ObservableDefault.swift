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

Misused, the macro reports one error that says what to write instead, and
still gives the property accessors where Swift allows them (a missing key, an
initial value), so the compiler adds nothing to it. What the macro system
leaves beside that error:
- Without `@ObservationIgnored`: one "did not produce a non-observing
  accessor" error, on the storage `@Observable` makes for the property (it
  copies this attribute there, and the storage must stay stored).
- On a `let`, or a `var` without a type: the same error, as a `let` or an
  untyped `var` cannot have accessors (without a type the compiler also says
  "type annotation missing in pattern").
- On a function or other declaration: the compiler's "'accessor' macro cannot
  be attached to …" beside the message; on `var a, b` or a tuple pattern the
  compiler refuses the attribute before the macro runs ("can only apply to a
  single variable").

`init` is among the accessor names so that, on a property `@Observable` also
expands, the compiler does not blame this macro for `@Observable`'s `init`
accessor.
*/
@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(_defaultsLink_))
public macro ObservableDefault<Value: Defaults.Serializable>(_ key: Defaults.Key<Value>) = #externalMacro(
	module: "DefaultsMacrosPlugin",
	type: "ObservableDefaultMacro"
)

/// Written without a key, the macro reports what to write instead.
@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(_defaultsLink_))
public macro ObservableDefault() = #externalMacro(
	module: "DefaultsMacrosPlugin",
	type: "ObservableDefaultMacro"
)
