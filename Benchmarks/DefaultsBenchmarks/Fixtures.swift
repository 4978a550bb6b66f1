import Defaults
import Foundation

/// A 3-field Codable value, stored as JSON like the Defaults package stores it.
struct Window: Codable, Equatable, Defaults.Serializable {
	var width: Int
	var height: Int
	var title: String
}

/// A fresh, uniquely named suite holding `keyCount` Int keys (`filler0`, `filler1`, …).
func makeSuite(_ label: String, keyCount: Int = 10) -> UserDefaults {
	let suite = UserDefaults(suiteName: "defaults-benchmarks.\(label).\(UUID().uuidString)")!
	for index in 0..<keyCount {
		suite.set(index, forKey: "filler\(index)")
	}

	return suite
}

/// The coders the Defaults package uses for Codable values (the decode-on-every-read baseline).
let jsonDecoder = JSONDecoder()
let jsonEncoder: JSONEncoder = {
	let encoder = JSONEncoder()
	encoder.outputFormatting = .sortedKeys
	return encoder
}()
