import Defaults
import Foundation

/**
Secret keys: a read served from memory, against an ordinary key's read and a
raw read, and a read that reaches the Secret Service. Only inside
`scripts/secret-service run` (a throwaway keyring): a benchmark never writes
to a person's keyring. `nil` elsewhere.
*/
func secretBenchmarks() throws -> (rows: [Row], timings: [(String, Double)])? {
	guard ProcessInfo.processInfo.environment["DEFAULTS_SECRET_SERVICE"] == "1" else {
		return nil
	}

	let suite = makeSuite("secrets")
	let secret = Defaults.Key<String>("token", default: "", suite: suite, secret: true)
	let plain = Defaults.Key<String>("plain", default: "", suite: suite)
	try secret.writeSecret("hello, world")
	defer { try? secret.removeSecret() }
	suite[plain] = "hello, world"
	let iterations = 20_000

	let versusOurs = compare("read secret String (from memory)", iterations: iterations, baselineName: "our read String", target: .atMost(1.5)) { _ in
		consume(suite[secret])
	} baseline: { _ in
		consume(suite[plain])
	}

	let versusRaw = compare("read secret String (from memory)", iterations: iterations, baselineName: "raw object(forKey:) as? String") { _ in
		consume(suite[secret])
	} baseline: { _ in
		consume(suite.object(forKey: "plain") as? String ?? "")
	}

	// `loadSecret` always asks the store: one lookup through D-Bus to gnome-keyring, and the hop to a thread of its own.
	let loads = 200
	let start = nanoseconds()
	for _ in 0..<loads {
		consume(try waitFor { try await secret.loadSecret() })
	}

	let perLoad = Double(nanoseconds() - start) / Double(loads)
	return ([versusOurs, versusRaw], [("loadSecret: a read that reaches the Secret Service (gnome-keyring), per call", perLoad)])
}
