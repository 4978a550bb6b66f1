import Foundation

// The subscripts are `@inlinable` so that their setters' loop exit lands in the caller's
// loop; see LoopExitWorkaround.swift.

extension Defaults {
	/**
	Reads or writes a key in its own suite.

	Reading returns the stored value, or the key's default when nothing is stored
	or the stored value does not decode (which is reported as a diagnostic).
	Writing `nil` to an optional key removes the stored value.

	```swift
	print(Defaults[.quality]) // 0.8
	Defaults[.quality] = 0.5
	Defaults[.quality] += 0.1 // 0.6
	```
	*/
	@inlinable
	public static subscript<Value: Serializable>(key: Key<Value>) -> Value {
		get { key.read(from: key.suite) }
		set {
			key.write(newValue, to: key.suite)
			if writeEndsCallersLoop() {
				endCallersLoop()
			}
		}
	}
}

/// Typed access to any suite through a key: `suite[.key]`.
extension UserDefaults {
	/**
	Reads or writes a key in this suite (rather than the key's own).

	```swift
	let extensionDefaults = UserDefaults(suiteName: "group.com.example.app")!
	extensionDefaults[.isUnicornMode] = true   // stored in that suite, whichever suite the key names
	print(extensionDefaults[.isUnicornMode])   // true
	```
	*/
	@inlinable
	public subscript<Value: Defaults.Serializable>(key: Defaults.Key<Value>) -> Value {
		get { key.read(from: self) }
		set {
			key.write(newValue, to: self)
			if Defaults.writeEndsCallersLoop() {
				Defaults.endCallersLoop()
			}
		}
	}

	/**
	Removes every value stored in this suite. Registered defaults stay.

	```swift
	UserDefaults(suiteName: "com.example.app")!.removeAll()
	```
	*/
	public func removeAll() {
		Suite.of(self).removeAll()
	}
}
