#if Configuration
import Configuration
import Defaults

extension DefaultsProvider {
	/**
	How a configuration key such as `http.timeout` names a value in the suite.

	Stored key names cannot contain dots, so the two ways of laying out a suite are:

	- ``nested``: the first component is a key of the suite, the rest are keys
	  of the dictionaries inside it. `http.timeout` is the `timeout` entry of
	  the `http` dictionary; set it with
	  `defaults write com.example.service http -dict-add timeout -int 30`.
	- ``flat(separator:)``: the components joined by the separator name one key.
	  `http.timeout` is the key `http_timeout`; set it with
	  `defaults write com.example.service http_timeout -int 30`.

	```swift
	let nested = DefaultsProvider(suite: suite)                                 // http → { timeout = 30 }
	let flat = DefaultsProvider(suite: suite, keyMapping: .flat(separator: "_")) // http_timeout = 30
	```
	*/
	public struct KeyMapping: Sendable, Hashable {
		/// The separator joining components into one stored name, or `nil` for nested dictionaries.
		let separator: String?

		/// `http.timeout` reads the `timeout` entry of the suite's `http` dictionary.
		public static let nested = KeyMapping(separator: nil)

		/**
		`http.timeout` reads the suite's key `http` + `separator` + `timeout`.

		```swift
		let provider = DefaultsProvider(suite: suite, keyMapping: .flat(separator: "-"))   // reads "http-timeout"
		```
		*/
		public static func flat(separator: String = "_") -> KeyMapping {
			KeyMapping(separator: separator)
		}

		/// The suite key that holds `key`'s value (for nested keys, the outermost dictionary); `nil` for an empty key.
		func storedName(of key: AbsoluteConfigKey) -> String? {
			guard let first = key.components.first else {
				return nil
			}

			return separator.map { key.components.joined(separator: $0) } ?? first
		}

		/// The key as reported in lookups and matched by the secrets specifier.
		func encodedKey(of key: AbsoluteConfigKey) -> String {
			key.components.joined(separator: separator ?? ".")
		}

		/// The stored value at `key`, `storedValue` giving the suite's value for a stored name.
		func value(at key: AbsoluteConfigKey, storedValue: (String) -> PropertyListValue?) -> PropertyListValue? {
			guard let name = storedName(of: key), var value = storedValue(name) else {
				return nil
			}

			guard separator == nil else {
				return value
			}

			// Anything but a dictionary on the way holds no entries: the key is absent, as in a JSON file.
			for component in key.components.dropFirst() {
				guard case .dictionary(let entries) = value, let entry = entries[component] else {
					return nil
				}

				value = entry
			}

			return value
		}
	}
}
#endif
