import Foundation

#if !canImport(ObjectiveC)
/**
The kind of a change, as Foundation on Apple platforms defines it.

swift-corelibs-foundation has no key-value observing and so no such type; it
is declared here so ``Defaults/KeyChange/kind`` has the same type everywhere
and code that checks it compiles on every platform.

```swift
let observation = Defaults.observe(.quality) { change in
	if change.kind == .setting {
		print("quality set to \(change.newValue)")
	}
}
```
*/
public enum NSKeyValueChange: UInt, Sendable {
	/// The value was set: the kind of every change the library reports.
	case setting = 1
	/// Elements were inserted into a to-many relationship (not used by the library).
	case insertion = 2
	/// Elements were removed from a to-many relationship (not used by the library).
	case removal = 3
	/// Elements of a to-many relationship were replaced (not used by the library).
	case replacement = 4
}
#endif
