import Defaults
import Foundation

/// A 3-field Codable value, stored as JSON like the Defaults package stores it.
struct Window: Codable, Equatable, Defaults.Serializable {
	var width: Int
	var height: Int
	var title: String
}

/**
A fresh, uniquely named suite holding `keyCount` Int keys (`filler0`, `filler1`, …),
written to its file before anything reads it, so the library and raw
`UserDefaults` start from the same values.
*/
func makeSuite(_ label: String, keyCount: Int = 10) -> UserDefaults {
	let name = "defaults-benchmarks.\(label).\(UUID().uuidString)"
	let values = Dictionary(uniqueKeysWithValues: (0..<keyCount).map { ("filler\($0)", $0) })
	let data = try! PropertyListSerialization.data(fromPropertyList: values, format: .binary, options: 0)
	try! data.write(to: suiteFile(named: name))
	return UserDefaults(suiteName: name)!
}

/// Where the suite called `name` keeps its values.
func suiteFile(named name: String) -> URL {
	Benchmark.configFolder.appendingPathComponent("\(name).plist")
}

/// The coders the Defaults package uses for Codable values (the decode-on-every-read baseline).
let jsonDecoder = JSONDecoder()
let jsonEncoder: JSONEncoder = {
	let encoder = JSONEncoder()
	encoder.outputFormatting = .sortedKeys
	return encoder
}()
