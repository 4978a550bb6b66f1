import Foundation

/**
Typed, observable preferences on top of `UserDefaults`.

Declare each key once, with its type and default value, then read and write it
anywhere through the `Defaults` subscript:

```swift
import Defaults

extension Defaults.Keys {
	static let quality = Key<Double>("quality", default: 0.8)
}

print(Defaults[.quality]) // 0.8
Defaults[.quality] += 0.1 // 0.9
Defaults.reset(.quality)  // back to 0.8
```

`Defaults` is a namespace; it has no instances. Values are stored in the key's
`UserDefaults` suite in the formats the Defaults package uses on Apple
platforms, so data written by either reads back in the other.
*/
public enum Defaults {}

/**
Another name for the ``Defaults`` namespace, for code that has a type of its
own named `Defaults`, or imports one.

Such a module names the package's namespace through this alias, usually once,
in a file of its own:

```swift
import Defaults

typealias Defaults = _Defaults
typealias Default = _Default

extension Defaults.Keys {
	static let showsMenuBarIcon = Key<Bool>("showsMenuBarIcon", default: true)
}
```
*/
public typealias _Defaults = Defaults

/// Another name for the ``Default`` property wrapper, the companion of ``_Defaults``.
///
/// ```swift
/// typealias Default = _Default
///
/// struct MenuBar {
/// 	@_Default(.quality) var quality
/// }
/// ```
public typealias _Default = Default
