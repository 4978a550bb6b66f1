import Defaults
import Foundation

/**
A `UserDefaults` that keeps its values in memory only: nothing is read from or
written to disk, and each instance is isolated from every other suite,
including its registered defaults and the process's launch arguments.

Use it in tests for code that takes a suite, so tests run in parallel without
files and without seeing each other's values. Every library API works with it:
keys, subscripts, `reset`, `removeAll`, observation, `updates`, `@Default`
and `@ObservableDefault`.

```swift
import DefaultsTesting
import Testing

/// The code under test: it takes the suite to keep its count in.
struct LaunchCounter {
	let launches: Defaults.Key<Int>

	init(suite: UserDefaults) {
		launches = Defaults.Key<Int>("launches", default: 0, suite: suite)
	}

	func record() {
		Defaults[launches] += 1
	}
}

@Test func countsLaunches() {
	let counter = LaunchCounter(suite: InMemoryDefaults())
	counter.record()
	#expect(Defaults[counter.launches] == 1)
}
```

Values are kept as property lists, as Foundation would store them; an object
that is not a property-list value is not stored and is reported as an
`unencodableValue` diagnostic.
*/
public final class InMemoryDefaults: UserDefaults, InMemorySuite {
	private struct Contents {
		var stored: [String: PropertyListValue] = [:]
		var registered: [String: PropertyListValue] = [:]
	}

	package let inMemoryID = UUID()
	private let contents = Locked(Contents())

	/// Creates an empty suite, optionally holding `values` as if they had been stored.
	public init(_ values: [String: Any] = [:]) {
		super.init(suiteName: "defaults.in-memory.\(inMemoryID.uuidString)")!
		for (name, value) in values {
			set(value, forKey: name)
		}
	}

	/// The value stored in memory for `defaultName`, else its registered default.
	override public func object(forKey defaultName: String) -> Any? {
		contents.withLock { $0.stored[defaultName] ?? $0.registered[defaultName] }?.object
	}

	/// Stores a property-list value in memory; `nil` removes it, and anything else is refused with a diagnostic.
	override public func set(_ value: Any?, forKey defaultName: String) {
		guard let value else {
			removeObject(forKey: defaultName)
			return
		}

		guard let stored = PropertyListValue(value) else {
			DiagnosticReporter.report(.unencodableValue, key: defaultName, "\(type(of: value)) is not a property-list value; nothing was stored")
			return
		}

		contents.withLock { $0.stored[defaultName] = stored }
	}

	/// Removes the stored value; the registered default shows again.
	override public func removeObject(forKey defaultName: String) {
		contents.withLock { $0.stored[defaultName] = nil }
	}

	/// Registers defaults for this instance only (Foundation on Linux shares them across the process).
	override public func register(defaults registrationDictionary: [String: Any]) {
		let registered = registrationDictionary.compactMapValues(PropertyListValue.init)
		contents.withLock { $0.registered.merge(registered) { $1 } }
	}

	/// The registered defaults overlaid with the stored values.
	override public func dictionaryRepresentation() -> [String: Any] {
		contents.withLock { $0.registered.merging($0.stored) { $1 } }.mapValues(\.object)
	}

	/// The stored values, whatever the name: an in-memory suite has one domain.
	override public func persistentDomain(forName domainName: String) -> [String: Any]? {
		contents.withLock { $0.stored }.mapValues(\.object)
	}

	/// Replaces every stored value, whatever the name: an in-memory suite has one domain.
	override public func setPersistentDomain(_ domain: [String: Any], forName domainName: String) {
		let stored = domain.compactMapValues(PropertyListValue.init)
		contents.withLock { $0.stored = stored }
	}

	/// Removes every stored value, whatever the name.
	override public func removePersistentDomain(forName domainName: String) {
		contents.withLock { $0.stored = [:] }
	}

	/// The registered defaults for `UserDefaults.registrationDomain`; nothing for any other name.
	override public func volatileDomain(forName domainName: String) -> [String: Any] {
		domainName == UserDefaults.registrationDomain ? contents.withLock { $0.registered }.mapValues(\.object) : [:]
	}

	/// There is nothing to write: always succeeds.
	override public func synchronize() -> Bool {
		true
	}
}
