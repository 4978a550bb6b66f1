import Foundation

/**
Lets generic code constrain itself to values that can be `nil`: `Optional`, and
``Defaults/AnySerializable`` (which can wrap nothing).

It is public, with its underscored name, for source compatibility with code
written for Defaults 9.

```swift
extension Defaults.Key where Value: _DefaultsOptionalProtocol {
	var isUnset: Bool { Defaults[self]._defaults_isNil }
}

print(Defaults.Key<String?>("nickname").isUnset) // true
```
*/
public protocol _DefaultsOptionalProtocol: ExpressibleByNilLiteral {
	/// Whether the value is `nil`; generic code cannot compare a value of this protocol with `nil` directly.
	var _defaults_isNil: Bool { get }
}

/// Every optional is one, so generic code can accept `Value?` through `_DefaultsOptionalProtocol`.
extension Optional: _DefaultsOptionalProtocol {
	public var _defaults_isNil: Bool {
		self == nil
	}
}

extension Defaults.AnySerializable: _DefaultsOptionalProtocol {
	/// `true` when it wraps nothing (the `nil` literal, or a value that could not be stored).
	public var _defaults_isNil: Bool {
		storage == nil
	}
}
