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
