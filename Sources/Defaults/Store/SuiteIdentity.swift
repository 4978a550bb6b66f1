import Foundation

/**
Which stored domain a `UserDefaults` object reads and writes.

Two `UserDefaults(suiteName: "x")` objects share one domain, so observers
registered through one must hear writes made through the other. On Linux the
domain name is read from the object when its suite object is first looked up;
elsewhere (or if it cannot be read) the object's identity stands in for it.
*/
enum SuiteIdentity: Hashable, Sendable {
	case standard
	case named(String)
	case object(ObjectIdentifier)
	/// A suite that keeps its values in memory only (`InMemoryDefaults`), identified for its whole life.
	case inMemory(UUID)

	/**
	The name of the suite's domain, which names its file: the process's name
	for the standard suite. Throws for a name that would leave the preferences
	folder, and for suites that have no file (in-memory ones, and objects whose
	name cannot be read).
	*/
	func domainName() throws(Defaults.PersistenceError) -> String {
		switch self {
		case .standard:
			return ProcessInfo.processInfo.processName
		case .named(let name):
			try PreferencesLocation.validate(suiteName: name)
			return name
		case .object, .inMemory:
			throw .unknownSuite
		}
	}

	/// How messages name the suite: its domain (on Linux the standard suite's is the process's name, as its file's), or what stands for one.
	var displayName: String {
		switch self {
		case .standard:
			#if canImport(Darwin)
			"standard"
			#else
			ProcessInfo.processInfo.processName
			#endif
		case .named(let name):
			name
		case .object, .inMemory:
			"an unnamed suite"
		}
	}

	static func resolve(_ defaults: UserDefaults) -> SuiteIdentity {
		if let inMemory = defaults as? any InMemorySuite {
			return .inMemory(inMemory.inMemoryID)
		}

		if defaults === UserDefaults.standard {
			return .standard
		}

		#if canImport(Darwin)
		return .object(ObjectIdentifier(defaults))
		#else
		// swift-corelibs-foundation keeps the name in a stored property `suite` (nil for the standard domain).
		guard let property = Mirror(reflecting: defaults).children.first(where: { $0.label == "suite" }) else {
			return .object(ObjectIdentifier(defaults))
		}

		switch property.value as? String? {
		case .some(.some(let name)):
			return .named(name)
		case .some(.none):
			return .standard
		case .none:
			return .object(ObjectIdentifier(defaults))
		}
		#endif
	}
}

/**
A `UserDefaults` whose values live in memory only, never in a file.

The library neither persists nor watches such a suite, and identifies it by
its own ID, so observers of one instance never hear another's writes.
`InMemoryDefaults` (product `DefaultsTesting`) is the implementation.
*/
package protocol InMemorySuite: UserDefaults {
	var inMemoryID: UUID { get }
}
