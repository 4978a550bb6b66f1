import Defaults
import Foundation

/// Typed reads against raw `UserDefaults` reads, decode-on-every-read, and a plain dictionary.
func readBenchmarks() -> [Row] {
	let suite = makeSuite("reads")
	let int = Defaults.Key<Int>("int", default: 0, suite: suite)
	let string = Defaults.Key<String>("string", default: "", suite: suite)
	let strings = Defaults.Key<[String]>("strings", default: [], suite: suite)
	let window = Defaults.Key<Window>("window", default: Window(width: 0, height: 0, title: ""), suite: suite)
	let absent = Defaults.Key<Int?>("absent", suite: suite)
	suite[int] = 42
	suite[string] = "hello, world"
	suite[strings] = ["alpha", "beta", "gamma", "delta"]
	suite[window] = Window(width: 800, height: 600, title: "Main")
	try? Defaults.flush(suite: suite)

	let floor = LockedDictionary(["int": 42, "string": "hello, world", "window": #"{"height":600,"title":"Main","width":800}"#])
	let iterations = 20_000

	let intRead = compare("read Int", iterations: iterations, baselineName: "raw object(forKey:) as? Int", target: .fasterBy(10)) { _ in
		consume(suite[int])
	} baseline: { _ in
		consume(suite.object(forKey: "int") as? Int ?? 0)
	}

	let floorRead = compare("read Int (floor)", iterations: iterations * 10, baselineName: "locked [String: Any] lookup as? Int", target: .atMost(3)) { _ in
		consume(suite[int])
	} baseline: { _ in
		consume(floor["int"] as? Int ?? 0)
	}

	let codableFloorRead = compare("read Codable struct (floor)", iterations: iterations * 10, baselineName: "locked [String: Any] lookup as? String", target: .atMost(3)) { _ in
		consume(suite[window])
	} baseline: { _ in
		consume(floor["window"] as? String ?? "")
	}

	let stringRead = compare("read String", iterations: iterations, baselineName: "raw object(forKey:) as? String", target: .atMost(1.1)) { _ in
		consume(suite[string])
	} baseline: { _ in
		consume(suite.object(forKey: "string") as? String ?? "")
	}

	let arrayRead = compare("read [String]", iterations: iterations, baselineName: "raw object(forKey:) as? [String]") { _ in
		consume(suite[strings])
	} baseline: { _ in
		consume(suite.object(forKey: "strings") as? [String] ?? [])
	}

	let codableRead = compare("read Codable struct", iterations: iterations, baselineName: "raw read + JSONDecoder", target: .fasterBy(10)) { _ in
		consume(suite[window])
	} baseline: { _ in
		let text = suite.object(forKey: "window") as? String ?? ""
		consume(try? jsonDecoder.decode(Window.self, from: Data(text.utf8)))
	}

	let codableVersusPrimitive = compare("read Codable struct", iterations: iterations, baselineName: "our read Int", target: .atMost(1.5)) { _ in
		consume(suite[window])
	} baseline: { _ in
		consume(suite[int])
	}

	let absentRead = compare("read Optional (absent)", iterations: iterations, baselineName: "raw object(forKey:) == nil") { _ in
		consume(suite[absent])
	} baseline: { _ in
		consume(suite.object(forKey: "absent") as? Int)
	}

	return [intRead, floorRead, stringRead, arrayRead, codableRead, codableFloorRead, codableVersusPrimitive, absentRead]
}
