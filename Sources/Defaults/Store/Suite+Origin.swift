import Foundation

/// Where a suite's value comes from: the layer holding it (``ValueLayer``) as the public `Defaults.ValueOrigin` (beside it, `ValueOrigin.swift`), with the file behind it.
extension Suite {
	/**
	Which layer holds the value found for `name`, and the file behind it,
	whether or not it decodes as a key's type (a typed key's `origin` says
	`.registeredDefault` for a value it cannot read: see
	`Defaults.Key.origin(in:)`).
	*/
	func origin(of name: String) -> Defaults.ValueOrigin {
		origin(of: name, layer: values.entry(forKey: name)?.layer)
	}

	/// Where a value of `name` found in `layer` comes from, and the file behind it; `nil`: no layer holds one.
	func origin(of name: String, layer: ValueLayer?) -> Defaults.ValueOrigin {
		#if canImport(Darwin)
		if defaults.objectIsForced(forKey: name) {
			return .forced(file: nil)
		}
		#endif
		guard let layer else {
			return .registeredDefault
		}

		return Defaults.ValueOrigin(layer, file: file(of: name, in: layer))
	}

	/// The file holding the value of `name` in `layer`, by the layer's location rule; `nil` when no file does.
	private func file(of name: String, in layer: ValueLayer) -> URL? {
		switch layer.location {
		case .process:
			nil
		case .preferencesFile:
			file?.url
		case .globalDomainFile:
			GlobalDomain.shared.fileURL
		case .systemFolders:
			administrator?.file(of: name, in: layer)
		}
	}
}
