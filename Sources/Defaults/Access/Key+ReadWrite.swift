import Foundation

extension Defaults.Key {
	/// Reads the key from `suite`: the stored value decoded, or the default when nothing decodes.
	@usableFromInline
	func read(from suite: UserDefaults) -> Value {
		value(fromStored: Store.object(forKey: name, in: suite), in: suite)
	}

	/// Decodes a stored object; `nil` or an object that does not decode gives the default.
	func value(fromStored object: Any?, in suite: UserDefaults) -> Value {
		guard let object else {
			return defaultValue
		}

		do {
			return try decode(object)
		} catch {
			return value(afterFailing: error, toDecode: object, in: suite)
		}
	}

	/// The rare path, kept out of line so reads that decode pay nothing for it.
	@inline(never)
	private func value(afterFailing error: SerializationError, toDecode object: Any, in suite: UserDefaults) -> Value {
		if let value = valueTypedByHand(object, in: suite) {
			return value
		}

		DiagnosticReporter.reportUndecodable(
			object,
			key: name,
			in: suite,
			"\(error); returning the default and leaving the stored value untouched"
		)
		return defaultValue
	}

	private func decode(_ object: Any) throws(SerializationError) -> Value {
		if let decodedValues {
			return try decodedValues.value(for: object, decode: codec.decode)
		}

		return try codec.decode(object)
	}

	/// A launch argument typed as plain text (`-homepage https://example.com`) read as the key's type.
	private func valueTypedByHand(_ object: Any, in suite: UserDefaults) -> Value? {
		guard let text = object as? String, LaunchArgumentReading.isLaunchArgument(name, text: text, in: suite) else {
			return nil
		}

		for interpretation in LaunchArgumentReading.interpretations(of: text) {
			if let value = try? decode(interpretation) {
				return value
			}
		}

		return nil
	}

	/// Writes `value` to `suite`; a `nil` optional removes the stored value.
	@usableFromInline
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
