#if Configuration
import Configuration
import Defaults
@testable import DefaultsConfiguration
import DefaultsTestSupport
import Foundation
import Testing

@Suite("DefaultsProvider converts stored values")
struct TypeConversionTests {
	@Test func numbersConvertWhenNothingIsLost() throws {
		let suite = TestSuite()
		// Written as the library writes it (a binary property list keeps the `Float`; Foundation's XML would not), by "another process".
		let stored: [String: Any] = ["http": ["timeout": 15, "ratio": 2.0, "half": 0.5, "small": Float(0.1)]]
		try PropertyListSerialization.data(fromPropertyList: stored, format: .binary, options: 0)
			.write(to: TestEnvironment.fileURL(ofSuite: suite.name), options: .atomic)
		try Defaults.flush(suite: suite.defaults)
		let provider = DefaultsProvider(suite: suite.defaults)

		#expect(try provider.value(forKey: ["http", "timeout"], type: .double).value?.content == .double(15))
		#expect(try provider.value(forKey: ["http", "timeout"], type: .int).value?.content == .int(15))
		#expect(try provider.value(forKey: ["http", "ratio"], type: .int).value?.content == .int(2))
		#expect(try provider.value(forKey: ["http", "small"], type: .double).value?.content == .double(0.1))
		#expect(throws: DefaultsProvider.TypeMismatch(key: "http.half", requestedType: .int, storedType: "real")) {
			try provider.value(forKey: ["http", "half"], type: .int)
		}
	}

	@Test func aStringIsNeverANumberOrABoolean() throws {
		let suite = TestSuite()
		suite.defaults.setRawAndSynchronize(["timeout": "15", "enabled": "true"], forKey: "http")
		let provider = DefaultsProvider(suite: suite.defaults)

		let mismatch = #expect(throws: DefaultsProvider.TypeMismatch.self) {
			try provider.value(forKey: ["http", "timeout"], type: .int)
		}
		#expect(mismatch?.description == "the key 'http.timeout' holds a string, which cannot be read as int")
		#expect(throws: DefaultsProvider.TypeMismatch.self) { try provider.value(forKey: ["http", "enabled"], type: .bool) }
		#expect(try provider.value(forKey: ["http", "timeout"], type: .string).value?.content == .string("15"))
	}

	/// swift-configuration's way with a mismatch: the reader answers with its default and tells its access reporter.
	@Test func aReaderFallsBackToItsDefaultAndReportsTheMismatch() throws {
		let suite = TestSuite()
		suite.defaults.setRawAndSynchronize(["timeout": "15"], forKey: "http")
		let events = EventCollector()
		let reader = ConfigReader(providers: [DefaultsProvider(suite: suite.defaults)], accessReporter: events)

		#expect(reader.int(forKey: "http.timeout", default: 30) == 30)
		#expect(reader.int(forKey: "http.timeout") == nil)
		#expect(throws: DefaultsProvider.TypeMismatch.self) { try reader.requiredInt(forKey: "http.timeout") }
		let reported = try #require(events.events.first?.providerResults.first?.result)
		#expect(throws: DefaultsProvider.TypeMismatch.self) { try reported.get() }
	}

	@Test func everyScalarAndArrayType() throws {
		let suite = TestSuite()
		let bytes = Data([1, 2, 3])
		suite.defaults.setRawAndSynchronize([
			"name": "api",
			"enabled": true,
			"key": bytes,
			"hosts": ["a", "b"],
			"ports": [80, 443],
			"weights": [1, 0.5],
			"flags": [true, false],
			"keys": [bytes, Data()],
			"none": [String](),
			"mixed": ["a", 1] as [Any],
			"created": Date(timeIntervalSince1970: 0),
			"nested": ["deeper": 1],
		], forKey: "service")
		let provider = DefaultsProvider(suite: suite.defaults)
		func read(_ name: String, _ type: ConfigType) throws -> ConfigContent? {
			try provider.value(forKey: ["service", name], type: type).value?.content
		}

		#expect(try read("name", .string) == .string("api"))
		#expect(try read("enabled", .bool) == .bool(true))
		#expect(try read("key", .bytes) == .bytes([1, 2, 3]))
		#expect(try read("hosts", .stringArray) == .stringArray(["a", "b"]))
		#expect(try read("ports", .intArray) == .intArray([80, 443]))
		#expect(try read("weights", .doubleArray) == .doubleArray([1, 0.5]))
		#expect(try read("flags", .boolArray) == .boolArray([true, false]))
		#expect(try read("keys", .byteChunkArray) == .byteChunkArray([[1, 2, 3], []]))
		#expect(try read("none", .intArray) == .intArray([]))
		#expect(try read("missing", .string) == nil)
		for (name, type) in [("mixed", ConfigType.stringArray), ("created", .string), ("nested", .string), ("ports", .int), ("enabled", .int), ("name", .bytes)] {
			#expect(throws: DefaultsProvider.TypeMismatch.self, "\(name) as \(type)") { try read(name, type) }
		}
	}

	@Test func aKeyBelowAValueThatIsNotADictionaryIsAbsent() throws {
		let suite = TestSuite()
		suite.defaults.setRawAndSynchronize("plain", forKey: "http")
		let provider = DefaultsProvider(suite: suite.defaults)
		#expect(try provider.value(forKey: ["http", "timeout"], type: .int).value == nil)
		#expect(try provider.value(forKey: ["http"], type: .string).value?.content == .string("plain"))
	}

	@Test func flatKeysUseTheSeparator() throws {
		let suite = TestSuite()
		suite.defaults.setRawAndSynchronize(20, forKey: "http-timeout")
		suite.defaults.setRawAndSynchronize(10, forKey: "http_timeout")
		let dash = DefaultsProvider(suite: suite.defaults, keyMapping: .flat(separator: "-"))
		let underscore = DefaultsProvider(suite: suite.defaults, keyMapping: .flat())
		#expect(try dash.value(forKey: ["http", "timeout"], type: .int) == LookupResult(encodedKey: "http-timeout", value: 20))
		#expect(try underscore.value(forKey: ["http", "timeout"], type: .int) == LookupResult(encodedKey: "http_timeout", value: 10))
	}

	@Test func registeredDefaultsAreNotConfiguration() throws {
		let suite = TestSuite()
		let name = "registered_\(UUID().uuidString.prefix(8))"
		let key = Defaults.Key<Int>(name, default: 7, suite: suite.defaults)
		let provider = DefaultsProvider(suite: suite.defaults, keyMapping: .flat())
		#expect(try provider.value(forKey: [name], type: .int).value == nil)
		Defaults[key] = 8
		#expect(try provider.value(forKey: [name], type: .int).value?.content == .int(8))
	}

	@Test func secretsAreRedacted() throws {
		let suite = TestSuite()
		suite.defaults.setRawAndSynchronize(["password": "hunter2", "user": "admin"], forKey: "database")
		let provider = DefaultsProvider(suite: suite.defaults, secretsSpecifier: .specific(["database.password"]))
		let password = try #require(try provider.value(forKey: ["database", "password"], type: .string).value)
		#expect(password.isSecret)
		#expect(!password.description.contains("hunter2"))
		#expect(try provider.value(forKey: ["database", "user"], type: .string).value?.isSecret == false)
		#expect(try provider.snapshot().value(forKey: ["database", "password"], type: .string).value?.isSecret == true)

		let events = EventCollector()
		let reader = ConfigReader(providers: [provider], accessReporter: events)
		#expect(reader.string(forKey: "database.password") == "hunter2")
		let logged = try #require(events.events.first)
		#expect(!String(describing: logged).contains("hunter2"), "the access log redacts it")
	}
}

/// Keeps every access event a reader reports.
final class EventCollector: AccessReporter, Sendable {
	private let collected = Locked<[AccessEvent]>([])

	func report(_ event: AccessEvent) {
		collected.withLock { $0.append(event) }
	}

	var events: [AccessEvent] {
		collected.withLock { $0 }
	}
}
#endif
