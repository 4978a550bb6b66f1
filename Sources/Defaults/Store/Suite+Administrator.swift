import Foundation

extension Suite {
	/**
	Whether an administrator forces `name`: on Linux from the suite's
	administrator layers, on Apple platforms from `objectIsForced(forKey:)`.

	<!-- check: internal -->
	```swift
	let isLocked = suite.isForced("proxy")
	```
	*/
	func isForced(_ name: String) -> Bool {
		#if canImport(Darwin)
		return defaults.objectIsForced(forKey: name)
		#else
		return administrator?.forcingFile(of: name) != nil
		#endif
	}

	/// Which administrator's file the current value of `name` comes from, as a message says it; `nil` when it is not an administrator's.
	func administratorSource(of name: String) -> String? {
		switch origin(of: name) {
		case .forced(let file?):
			"the value an administrator forces in \(file.path)"
		case .systemWide(let file?):
			"the system-wide default in \(file.path)"
		default:
			nil
		}
	}

	/**
	Which layer holds the value found for `name`, and the file behind it,
	whether or not it decodes as a key's type (a typed key's `origin` says
	`.registeredDefault` for a value it cannot read: see
	`Defaults.Key.origin(in:)`).
	*/
	func origin(of name: String) -> Defaults.ValueOrigin {
		origin(of: name, source: values.entry(forKey: name)?.source)
	}

	/// Where a value of `name` found in the layer `source` comes from, and the file behind it; `nil`: no layer holds one.
	func origin(of name: String, source: ValueSource?) -> Defaults.ValueOrigin {
		#if canImport(Darwin)
		if defaults.objectIsForced(forKey: name) {
			return .forced(file: nil)
		}
		#endif
		guard let source else {
			return .registeredDefault
		}

		switch source {
		case .forced:
			return .forced(file: administrator?.forcingFile(of: name))
		case .argument:
			return .launchArgument
		case .stored:
			return .stored(file: file?.url)
		case .systemWide:
			return .systemWide(file: administrator?.systemWideFile(of: name))
		case .global:
			return .globalDomain(file: GlobalDomain.shared.fileURL)
		case .registered:
			return .registeredDefault
		}
	}
}
