import Foundation

extension Defaults.Key {
	/// Reads the key from `suite`: the stored value decoded, or the default when nothing decodes.
	func read(from suite: UserDefaults) -> Value {
		value(fromStored: Store.object(forKey: name, in: suite))
	}

	/// Decodes a stored object; `nil` or an object that does not decode gives the default.
	func value(fromStored object: Any?) -> Value {
		guard let object else {
			return defaultValue
		}

		do {
			if let decodedValues {
				return try decodedValues.value(for: object, decode: codec.decode)
			}

			return try codec.decode(object)
		} catch {
			DiagnosticReporter.report(
				.undecodableValue,
				key: name,
				"\(error); returning the default and leaving the stored value untouched"
			)
			return defaultValue
		}
	}

	/// Writes `value` to `suite`; a `nil` optional removes the stored value.
	func write(_ value: Value, to suite: UserDefaults) {
		do {
			switch try codec.encode(value) {
			case .object(let object):
				Store.set(object, forKey: name, in: suite)
			case .absent:
				Store.removeObject(forKey: name, in: suite)
			}
		} catch {
			DiagnosticReporter.report(.unencodableValue, key: name, "\(error); nothing was written")
		}
	}
}
