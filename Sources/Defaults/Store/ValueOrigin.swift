import Foundation

extension Defaults {
	/**
	Where a key's current value comes from, highest precedence first, and the
	file behind it: what `git config --show-origin` tells for a setting.

	```swift
	switch Defaults.Keys.proxy.origin {
	case .forced(let file):
		print("set by your administrator in \(file?.path ?? "a profile")")
	case .stored:
		print("your setting")
	default:
		print("a default")
	}
	```
	*/
	public enum ValueOrigin: Sendable, Hashable {
		/// An administrator forces the value: writes are refused. The file is `nil` on Apple platforms, where a profile forces it.
		case forced(file: URL?)
		/// A launch argument (`-name value`).
		case launchArgument
		/// The user's own stored value, in the suite's file (`nil`: the suite has none, as on Apple platforms or in memory).
		case stored(file: URL?)
		/// A system-wide default an administrator installed for every user.
		case systemWide(file: URL?)
		/// The global domain (`.GlobalPreferences.plist`), shared by every suite.
		case globalDomain(file: URL?)
		/// The key's default value, registered by the app.
		case registeredDefault
	}
}

extension Defaults.ValueOrigin {
	/// The public case of `layer`, naming `file` where the case has one: each ``ValueLayer`` is one case.
	init(_ layer: ValueLayer, file: URL?) {
		switch layer {
		case .forced:
			self = .forced(file: file)
		case .argument:
			self = .launchArgument
		case .stored:
			self = .stored(file: file)
		case .systemWide:
			self = .systemWide(file: file)
		case .global:
			self = .globalDomain(file: file)
		case .registered:
			self = .registeredDefault
		}
	}
}

extension Defaults._AnyKey {
	/**
	Whether an administrator forces this key's value: a write is refused (with
	a ``Defaults/Diagnostic/Kind/forcedValue`` diagnostic), so disable the
	control that would change it. On Linux the forced values are read from
	the system configuration folders (see the "Settings an administrator
	manages" article); on Apple platforms this is `objectIsForced(forKey:)`.

	```swift
	let canChangeProxy = !Defaults.Keys.proxy.isForced   // grey out the control when false
	```
	*/
	public var isForced: Bool {
		suiteObject.isForced(name)
	}

	/**
	Where the key's current value comes from, and the file behind it: the
	layer whose value a read returns. A value a layer holds that does not
	decode as the key's type (an administrator's `5` for a `String` key) is
	not the value read: the read returns the key's default, and `origin` says
	``Defaults/ValueOrigin/registeredDefault``, while a diagnostic names the
	file that holds it.

	```swift
	print(Defaults.Keys.proxy.origin)   // systemWide(file: Optional(file:///etc/xdg/com.example.app.plist))
	```
	*/
	public var origin: Defaults.ValueOrigin {
		// Every key is a typed `Key<Value>`, which knows whether its value decodes.
		(self as? any TypedOrigin)?.originOfRead ?? suiteObject.origin(of: name)
	}
}

/// A key that knows which layer a read of it returns, because it knows whether that layer's value decodes as its type.
protocol TypedOrigin {
	/// The origin of the value a read returns now.
	var originOfRead: Defaults.ValueOrigin { get }
}
