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
		return administrator?.file(of: name, in: .forced) != nil
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
}
