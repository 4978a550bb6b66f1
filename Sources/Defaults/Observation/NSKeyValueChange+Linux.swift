import Foundation

#if !canImport(ObjectiveC)
/**
The kind of a change, as Foundation on Apple platforms defines it.

swift-corelibs-foundation has no key-value observing and so no such type; it
is declared here so ``Defaults/KeyChange/kind`` has the same type everywhere
and code that checks it compiles on every platform.

```swift
Defaults.observe(.quality) { change in
	if change.kind == .setting { … }
}
```
*/
public enum NSKeyValueChange: UInt, Sendable {
	case setting = 1
	case insertion = 2
	case removal = 3
	case replacement = 4
}
#endif
