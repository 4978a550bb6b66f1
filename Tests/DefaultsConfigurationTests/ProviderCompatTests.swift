#if Configuration
import Configuration
import ConfigurationTesting
import Defaults
import DefaultsConfiguration
import DefaultsTestSupport
import Foundation
import Testing

/// swift-configuration's own conformance test, over a suite holding its test data in each key layout.
@Suite("DefaultsProvider passes ProviderCompatTest")
struct ProviderCompatTests {
	static let magic = Data([0x6d, 0x61, 0x67, 0x69, 0x63])
	static let magic2 = Data([0x6d, 0x61, 0x67, 0x69, 0x63, 0x32])

	/// The compat test's values by dotted key, as `defaults write` would store them.
	static var values: [String: Any] {[
		"string": "Hello",
		"other.string": "Other Hello",
		"int": 42,
		"other.int": 24,
		"double": 3.14,
		"other.double": 2.72,
		"bool": true,
		"other.bool": false,
		"bytes": magic,
		"other.bytes": magic2,
		"stringy.array": ["Hello", "World"],
		"other.stringy.array": ["Hello", "Swift"],
		"inty.array": [42, 24],
		"other.inty.array": [16, 32],
		"doubly.array": [3.14, 2.72],
		"other.doubly.array": [0.9, 1.8],
		"booly.array": [true, false],
		"other.booly.array": [false, true, true],
		"byteChunky.array": [magic, magic2],
		"other.byteChunky.array": [magic, magic2, magic],
	]}

	/// The values nested: `other.stringy.array` is `other` → `stringy` → `array`.
	static var nestedValues: [String: Any] {
		var root: [String: Any] = [:]
		for (key, value) in values {
			root = inserting(value, at: key.split(separator: ".").map(String.init)[...], into: root)
		}

		return root
	}

	private static func inserting(_ value: Any, at path: ArraySlice<String>, into dictionary: [String: Any]) -> [String: Any] {
		var dictionary = dictionary
		guard let first = path.first else {
			return dictionary
		}

		if path.count == 1 {
			dictionary[first] = value
		} else {
			dictionary[first] = inserting(value, at: path.dropFirst(), into: dictionary[first] as? [String: Any] ?? [:])
		}

		return dictionary
	}

	@Test func nestedKeys() async throws {
		let suite = TestSuite()
		for (name, value) in Self.nestedValues {
			suite.defaults.setRawAndSynchronize(value, forKey: name)
		}

		try await ProviderCompatTest(provider: DefaultsProvider(suite: suite.defaults)).runTest()
	}

	@Test func flatKeys() async throws {
		let suite = TestSuite()
		for (key, value) in Self.values {
			suite.defaults.setRawAndSynchronize(value, forKey: key.replacingOccurrences(of: ".", with: "_"))
		}

		try await ProviderCompatTest(provider: DefaultsProvider(suite: suite.defaults, keyMapping: .flat())).runTest()
	}
}
#endif
