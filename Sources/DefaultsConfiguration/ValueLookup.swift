#if Configuration
import Configuration
import Defaults

/// Turns a configuration key and type into a lookup result, the same way for the provider and its snapshots.
struct ValueLookup: Sendable {
	let keyMapping: DefaultsProvider.KeyMapping
	let secrets: SecretsSpecifier<String, ConfigContent>

	func result(
		for key: AbsoluteConfigKey,
		type: ConfigType,
		storedValue: (String) -> PropertyListValue?
	) throws(DefaultsProvider.TypeMismatch) -> LookupResult {
		let encodedKey = keyMapping.encodedKey(of: key)
		guard let stored = keyMapping.value(at: key, storedValue: storedValue) else {
			return LookupResult(encodedKey: encodedKey, value: nil)
		}

		guard let content = ConfigContent(stored, as: type) else {
			throw DefaultsProvider.TypeMismatch(key: encodedKey, requestedType: type, storedType: stored.typeName)
		}

		let isSecret = secrets.isSecret(key: encodedKey, value: content)
		return LookupResult(encodedKey: encodedKey, value: ConfigValue(content, isSecret: isSecret))
	}
}
#endif
