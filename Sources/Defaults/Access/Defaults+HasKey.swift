import Foundation

extension Defaults {
	/**
	Whether the key has a value of its own, as opposed to reading its default.

	A value written through the library or raw `UserDefaults`, or given as a
	launch argument, counts; a registered or computed default does not, even
	when a stored value happens to equal it. For a secret key (`secret: true`),
	whether its secret store holds a value (asked at the key's first read).

	```swift
	print(Defaults.hasKey(.username)) // false
	Defaults[.username] = "ada"
	print(Defaults.hasKey(.username)) // true
	Defaults.reset(.username)
	print(Defaults.hasKey(.username)) // false
	```
	*/
	public static func hasKey(_ key: _AnyKey) -> Bool {
		key.isSecret ? key.hasSecret(in: key.suiteObject) : key.suiteObject.hasOwnValue(forKey: key.name)
	}
}

/// Whether a suite stores a value of its own for a key: ``Foundation/UserDefaults/hasKey(_:)``.
extension UserDefaults {
	/**
	Whether this suite has a value of its own for the key (rather than its default).

	```swift
	let group = UserDefaults(suiteName: "com.example.shared")!
	print(group.hasKey(.username)) // false
	```
	*/
	public func hasKey(_ key: Defaults._AnyKey) -> Bool {
		key.isSecret ? key.hasSecret(in: Suite.of(self)) : Suite.of(self).hasOwnValue(forKey: key.name)
	}
}
