import Foundation

/**
A suite's own values as `Sendable` trees, for readers outside the core (the
`DefaultsConfiguration` provider): what is stored in the suite or given as a
launch argument, leaving registered and global defaults out.
*/
package enum StoredSuiteValues {
	/**
	Every value of the suite, read at once: a write made by another thread
	lands either wholly before or wholly after this read, never halfway.
	Values that are not property lists are left out.
	*/
	package static func all(in suite: UserDefaults) -> [String: PropertyListValue] {
		Suite.of(suite).values.ownValues()
	}

	/// The suite's own value for `name`; `nil` when it has none or it is not a property list.
	package static func value(forKey name: String, in suite: UserDefaults) -> PropertyListValue? {
		Store.storedObject(forKey: name, in: suite).flatMap(PropertyListValue.init)
	}
}
