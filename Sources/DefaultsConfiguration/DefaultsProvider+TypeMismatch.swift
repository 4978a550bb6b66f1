#if Configuration
import Configuration

extension DefaultsProvider {
	/**
	The stored value cannot be read as the type asked for: the string `"15"`
	asked for as an integer, a dictionary asked for as a string.

	The provider throws it from `value(forKey:type:)` and its relatives, and
	delivers it to watchers as a failure. A `ConfigReader` then reports it to
	its access reporter and answers with its default (or throws, for a
	required value), so a value mistyped with `defaults write` costs one log
	line, never a crash. Write the value again with the right type flag
	(`defaults write com.example.service http -dict-add timeout -int 15`).

	```swift
	do {
		_ = try provider.value(forKey: ["http", "timeout"], type: .int)
	} catch let mismatch as DefaultsProvider.TypeMismatch {
		print(mismatch)   // the key 'http.timeout' holds a string, which cannot be read as int
	}
	```
	*/
	public struct TypeMismatch: Error, Sendable, Hashable, CustomStringConvertible {
		/// The key as encoded for the suite (`http.timeout`, or `http_timeout` with a flat mapping).
		public let key: String

		/// The type the reader asked for.
		public let requestedType: ConfigType

		/// The property-list type of the stored value: string, integer, real, boolean, data, date, array or dictionary.
		public let storedType: String

		/// One line naming the key, what it holds and what was asked.
		public var description: String {
			"the key '\(key)' holds \(storedType == "integer" || storedType == "array" ? "an" : "a") \(storedType), which cannot be read as \(requestedType.rawValue)"
		}
	}
}
#endif
