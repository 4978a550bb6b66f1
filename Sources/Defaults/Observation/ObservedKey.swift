import Foundation

/// Identifies one observed key: a suite object and a key name.
struct ObservedKey: Hashable, Sendable {
	let suite: Suite
	let name: String

	/**
	Stands for every key of `suite`: an observer registered under it hears each
	change to any key of the suite (a whole-suite reader such as a
	configuration provider). Property lists cannot hold a NUL character, so no
	stored key is called this.
	*/
	static func everyKey(of suite: Suite) -> ObservedKey {
		ObservedKey(suite: suite, name: ObserverTable.everyKeyName)
	}

	static func == (lhs: Self, rhs: Self) -> Bool {
		lhs.suite === rhs.suite && lhs.name == rhs.name
	}

	func hash(into hasher: inout Hasher) {
		hasher.combine(ObjectIdentifier(suite))
		hasher.combine(name)
	}
}

extension ObservedKey {
	/// The key's suite object and name; a secret key's suite starts hearing the secret store's changes (every observation is made from here).
	init(_ key: Defaults._AnyKey) {
		self.init(suite: key.suiteObject, name: key.name)
		if key.isSecret {
			suite.secrets.observe(name)
		}
	}

	/// Registers `deliver` for changes to this key; returns the ID that removes it.
	func addObserver(wantsPrior: Bool, deliver: @escaping @Sendable (RawChange) -> Void) -> UInt64 {
		suite.observers.add(for: name, wantsPrior: wantsPrior, deliver: deliver)
	}

	func removeObserver(_ id: UInt64) {
		suite.observers.remove(id, for: name)
	}
}
