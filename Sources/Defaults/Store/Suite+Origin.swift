import Foundation

/// Where a suite's value comes from: the layer holding it (`ValueSource`) as the public `Defaults.ValueOrigin` (beside it, `ValueOrigin.swift`), with the file behind it.
extension Suite {
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
