import Foundation

/**
A suite's own values as `Sendable` trees, for readers outside the core (the
`DefaultsConfiguration` provider): what is stored in the suite's domain or
given as a launch argument, leaving registered defaults out — on Linux those
are process-wide, so another suite's defaults would otherwise show through.
*/
package enum StoredSuiteValues {
	/**
	Every value of the suite, read at once: a write made by another thread
	lands either wholly before or wholly after this read, never halfway.
	Values that are not property lists are left out.
	*/
	package static func all(in suite: UserDefaults) -> [String: PropertyListValue] {
		let stored: [String: Any]
		if let domainName = Store.persistentDomainName(of: suite) {
			stored = suite.persistentDomain(forName: domainName) ?? [:]
		} else {
			stored = suite.dictionaryRepresentation().filter { !Registrations.isRegisteredDefault($0.value, forKey: $0.key, in: suite) }
		}

		// Launch arguments override stored values, as they do for every read.
		let arguments = suite.volatileDomain(forName: UserDefaults.argumentDomain)
		return stored.merging(arguments) { $1 }.compactMapValues(PropertyListValue.init)
	}

	/// The suite's own value for `name`; `nil` when it has none or it is not a property list.
	package static func value(forKey name: String, in suite: UserDefaults) -> PropertyListValue? {
		Store.storedObject(forKey: name, in: suite).flatMap(PropertyListValue.init)
	}
}
