import Foundation

/**
Which undecodable stored values were already reported.

A stored value that does not decode fails on every read; reporting it every
time floods the log with one fact. It is reported once per suite, key and
stored value, and again when the stored value changes (to another value that
does not decode either).

Only the failure path comes here: a read that decodes never touches it. Memory
is one fingerprint per key whose stored value failed, and the whole record is
dropped past ``capacity`` keys (the cost is one repeated report per key).
*/
enum UndecodableValueReports {
	static let capacity = 4096

	private struct Fact: Hashable {
		let suite: SuiteIdentity
		let key: String
	}

	private static let fingerprints = Locked<[Fact: Int]>([:])

	/// Whether `stored` is a new fact for `key` in `suite`, remembering it as reported.
	static func isNew(_ stored: Any, key: String, in suite: UserDefaults) -> Bool {
		let fact = Fact(suite: SuiteIdentity.of(suite), key: key)
		let fingerprint = fingerprint(of: stored)
		return fingerprints.withLock { fingerprints in
			guard fingerprints[fact] != fingerprint else {
				return false
			}

			if fingerprints.count >= capacity {
				fingerprints.removeAll(keepingCapacity: true)
			}

			fingerprints[fact] = fingerprint
			return true
		}
	}

	private static func fingerprint(of stored: Any) -> Int {
		var hasher = Hasher()
		hasher.combine(String(describing: type(of: stored)))
		if let value = PropertyListValue(stored) {
			hasher.combine(value)
		} else {
			hasher.combine(String(describing: stored))
		}

		return hasher.finalize()
	}
}
