import Testing
@testable import Defaults

/// A `Codable` secret: what the secrets' tests store beside a `String` one, and what bytes of another shape fail to decode as.
struct Login: Codable, Hashable, Defaults.Serializable {
	var user: String
	var password: String
}

/**
Expects what a key whose stored secret does not decode as its type answers:
its default, read three times with one `.secretUnavailable` diagnostic naming
the key, and `.failed` from the typed API; none of them may show the stored
bytes, which hold "SENTINEL". Returns the failure's reason, for what else it
must say.
*/
@discardableResult
func expectUndecodable<Value: Equatable>(_ key: Defaults.Key<Value>, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
	let (reads, diagnostics) = DiagnosticReporter.capturing {
		[Defaults[key], Defaults[key], Defaults[key]]
	}
	#expect(reads == Array(repeating: key.defaultValue, count: 3), sourceLocation: sourceLocation)
	#expect(diagnostics.map(\.kind) == [.secretUnavailable], sourceLocation: sourceLocation)
	#expect(diagnostics.allSatisfy { $0.key == key.name && !$0.description.contains("SENTINEL") }, "\(diagnostics)", sourceLocation: sourceLocation)
	do {
		_ = try key.readSecret()
		Issue.record("a secret that does not decode was read", sourceLocation: sourceLocation)
		return nil
	} catch {
		guard case .failed(let reason) = error else {
			Issue.record("expected .failed, got \(error)", sourceLocation: sourceLocation)
			return nil
		}

		#expect(!reason.contains("SENTINEL"), sourceLocation: sourceLocation)
		return reason
	}
}
