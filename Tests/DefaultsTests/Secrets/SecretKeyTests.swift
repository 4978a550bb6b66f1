import DefaultsTestSupport
import DefaultsTesting
import Foundation
import Testing
@testable import Defaults

private struct Account: Codable, Hashable, Defaults.Serializable {
	var user: String
	var token: String
}

/// A suite name no other test uses.
private func uniqueSuiteName(_ label: String = #function) -> String {
	"defaults-tests.secrets.\(label.filter(\.isLetter).prefix(30)).\(UUID().uuidString.prefix(8))"
}

/// Secret keys in tests that isolate themselves: the in-memory secret store, through the normal API.
@Suite("Secret keys in memory: the normal API, observation, the typed API")
struct SecretKeyTests {
	@Test("a secret String? round-trips through Defaults[key], nil removes it, and nothing enters the suite's values", .isolatedDefaults)
	func roundTrip() throws {
		let suite = UserDefaults(suiteName: uniqueSuiteName())!
		let key = Defaults.Key<String?>("apiToken", suite: suite, secret: true)
		#expect(key.isSecret)
		#expect(Defaults[key] == nil)
		Defaults[key] = "s3cr3t"
		#expect(Defaults[key] == "s3cr3t")
		#expect(suite[key] == "s3cr3t")
		#expect(key.suiteObject.values.entry(forKey: "apiToken") == nil)
		#expect(Defaults.hasKey(key))
		#expect(suite.hasKey(key))
		Defaults[key] = nil
		#expect(Defaults[key] == nil)
		#expect(!Defaults.hasKey(key))
		#expect(try key.readSecret() == nil)
	}

	/// A read from memory returns what the key last read while memory is unchanged: any change to it, through any key of the name or the store, is seen at the next read.
	@Test("a secret read again from memory sees every change, whichever key of the name made it", .isolatedDefaults)
	func rememberedReadsFollowEveryChange() throws {
		let suite = UserDefaults(suiteName: uniqueSuiteName())!
		let reader = Defaults.Key<Int>("pin", default: 0, suite: suite, secret: true)
		let writer = Defaults.Key<Int>("pin", default: 0, suite: suite, secret: true)
		Defaults[writer] = 1
		#expect(Defaults[reader] == 1)
		#expect(Defaults[reader] == 1, "from memory")
		for pin in 2...50 {
			Defaults[writer] = pin
			#expect(Defaults[reader] == pin)
		}

		try writer.removeSecret()
		#expect(Defaults[reader] == 0)
		try writer.writeSecret(7)
		#expect(Defaults[reader] == 7)
		#expect(try reader.readSecret() == 7)
	}

	@Test("a key with a default, a Codable struct and an Int round-trip; reset and Defaults.reset remove them", .isolatedDefaults)
	func valuesAndReset() throws {
		let suite = UserDefaults(suiteName: uniqueSuiteName())!
		let licence = Defaults.Key<String>("licence", default: "", suite: suite, secret: true)
		let account = Defaults.Key<Account?>("account", suite: suite, secret: true)
		let pin = Defaults.Key<Int>("pin", default: 0, suite: suite, secret: true)
		Defaults[licence] = "ABCD-1234"
		Defaults[account] = Account(user: "ada", token: "t0k3n")
		Defaults[pin] = 4321
		#expect(Defaults[licence] == "ABCD-1234")
		#expect(Defaults[account] == Account(user: "ada", token: "t0k3n"))
		#expect(Defaults[pin] == 4321)
		#expect(!licence.isDefaultValue)
		licence.reset()
		Defaults.reset(account, pin)
		#expect(Defaults[licence] == "")
		#expect(licence.isDefaultValue)
		#expect(Defaults[account] == nil)
		#expect(Defaults[pin] == 0)
		#expect(try pin.readSecret() == 0)
	}

	@Test("secret: false is an ordinary key, stored in the suite's values")
	func notSecret() throws {
		try withIsolatedDefaults { () throws in
			let key = Defaults.Key<String>(TestSuite().keyName(), default: "a", suite: .standard, secret: false)
			#expect(!key.isSecret)
			Defaults[key] = "b"
			#expect(key.suiteObject.values.entry(forKey: key.name)?.object as? String == "b")
			#expect(throws: Defaults.SecretError.self) { try key.readSecret() }
		}
	}

	@Test("observe hears a secret's writes and resets, with typed old and new values", .isolatedDefaults)
	func observation() {
		let key = Defaults.Key<String?>("observedToken", suite: UserDefaults(suiteName: uniqueSuiteName())!, secret: true)
		let changes = Locked<[String]>([])
		let observation = Defaults.observe(key, options: [.initial, .prior]) { change in
			changes.withLock { $0.append("\(change.isPrior ? "prior " : "")\(change.oldValue ?? "nil")→\(change.newValue ?? "nil")") }
		}
		Defaults[key] = "one"
		Defaults[key] = "two"
		key.reset()
		observation.invalidate()
		Defaults[key] = "after"
		#expect(changes.withLock { $0 } == [
			"nil→nil",
			"prior nil→one", "nil→one",
			"prior one→two", "one→two",
			"prior two→nil", "two→nil",
		])
	}

	@Test("updates() yields a secret's changes", .isolatedDefaults)
	func updates() async {
		let key = Defaults.Key<Int>("updatedPin", default: 0, suite: UserDefaults(suiteName: uniqueSuiteName())!, secret: true)
		let seen = Task {
			var values: [Int] = []
			for await value in Defaults.updates(key) {
				values.append(value)
				if value == 2 {
					break
				}
			}
			return values
		}
		#expect(await eventually(timeout: .seconds(10)) { key.suiteObject.observers.count(of: key.name) > 0 })
		Defaults[key] = 1
		Defaults[key] = 2
		let values = await seen.value
		#expect(values == [0, 1, 2])
	}

	@Test("@Default reads, writes and resets a secret key", .isolatedDefaults)
	func propertyWrapper() throws {
		let key = Defaults.Key<String>("wrappedToken", default: "none", suite: UserDefaults(suiteName: uniqueSuiteName())!, secret: true)
		struct Model {
			@Default var token: String

			init(_ key: Defaults.Key<String>) {
				_token = Default(key)
			}
		}

		let model = Model(key)
		#expect(model.token == "none")
		model.token = "wrapped"
		#expect(Defaults[key] == "wrapped")
		#expect(try key.readSecret() == "wrapped")
		model.$token.reset()
		#expect(model.token == "none")
	}

	@Test("the typed API: writeSecret, readSecret, loadSecret, removeSecret", .isolatedDefaults)
	func typedAPI() async throws {
		let key = Defaults.Key<Account?>("typedAccount", suite: UserDefaults(suiteName: uniqueSuiteName())!, secret: true)
		try key.writeSecret(Account(user: "grace", token: "cobol"))
		#expect(try key.readSecret() == Account(user: "grace", token: "cobol"))
		#expect(try await key.loadSecret() == Account(user: "grace", token: "cobol"))
		#expect(Defaults[key] == Account(user: "grace", token: "cobol"))
		try key.removeSecret()
		#expect(try await key.loadSecret() == nil)
		#expect(Defaults[key] == nil)
	}

	@Test("loadSecret from the main actor returns the value and keeps the test's isolation")
	@MainActor
	func loadOnMainActor() async throws {
		try await withIsolatedDefaults { () async throws in
			let key = Defaults.Key<String?>("mainActorToken", suite: UserDefaults(suiteName: uniqueSuiteName())!, secret: true)
			Defaults[key] = "from the main actor"
			#expect(try await key.loadSecret() == "from the main actor")
		}
	}

	@Test("another process's change to a secret is not seen from memory; loadSecret() reads it, and the key's observers hear it once")
	func changeFromElsewhereHeardAtLoad() async throws {
		let suite = TestSuite()
		let store = InMemorySecretStore()
		Suite.installSecretStore(store, for: suite.defaults)
		let key = Defaults.Key<String?>("token", suite: suite.defaults, secret: true)
		Defaults[key] = "mine"
		let heard = Recorder<String>()
		let observation = Defaults.observe(key, options: []) { change in
			heard.append("\(change.oldValue ?? "nil")→\(change.newValue ?? "nil")")
		}
		defer { observation.invalidate() }

		// Behind the suite, as another process writes the keyring: this process's memory still holds "mine".
		try store.store(SecretEncoding.bytes(of: .string("theirs")), for: SecretItem(suite: suite.name, key: "token"))
		#expect(Defaults[key] == "mine")
		#expect(try await key.loadSecret() == "theirs")
		// Nonisolated, the observer ran on the loading thread, before loadSecret() returned.
		#expect(heard.values == ["mine→theirs"])
		#expect(Defaults[key] == "theirs")
	}

	@Test("an isolated test's secrets are its own: another isolation and the process-wide suite do not see them")
	func isolation() throws {
		let name = uniqueSuiteName()
		let key = Defaults.Key<String?>("isolatedToken", suite: UserDefaults(suiteName: name)!, secret: true)
		Suite.installSecretStore(InMemorySecretStore(), for: key.suite)
		withIsolatedDefaults {
			Defaults[key] = "first isolation"
			#expect(Defaults[key] == "first isolation")
		}
		withIsolatedDefaults {
			#expect(Defaults[key] == nil)
		}
		#expect(try key.processWideSuite.secrets.read("isolatedToken", reporting: false).get() == nil)
	}

	@Test("an InMemoryDefaults suite keeps its secrets in memory")
	func inMemoryDefaults() throws {
		let suite = InMemoryDefaults()
		let key = Defaults.Key<String?>("memoryToken", suite: suite, secret: true)
		Defaults[key] = "in memory"
		#expect(Defaults[key] == "in memory")
		#expect(suite.dictionaryRepresentation()["memoryToken"] == nil)
	}

	@Test("a secret that does not read as the key's type reads as the default, with one diagnostic naming the key and not the value", .isolatedDefaults)
	func undecodable() throws {
		let suite = UserDefaults(suiteName: uniqueSuiteName())!
		let text = Defaults.Key<String?>("mistyped", suite: suite, secret: true)
		let number = Defaults.Key<Int>("mistyped", default: 7, suite: suite, secret: true)
		Defaults[text] = "SENTINEL-not-a-number"
		let reason = expectUndecodable(number)
		#expect(reason?.contains("Int") == true)
	}

	@Test("text that reads as the key's type (a credential typed by hand) decodes", .isolatedDefaults)
	func textInterpreted() throws {
		let suite = UserDefaults(suiteName: uniqueSuiteName())!
		Defaults[Defaults.Key<String?>("port", suite: suite, secret: true)] = "8443"
		Defaults[Defaults.Key<String?>("verbose", suite: suite, secret: true)] = "true"
		#expect(Defaults[Defaults.Key<Int>("port", default: 0, suite: suite, secret: true)] == 8443)
		#expect(Defaults[Defaults.Key<Bool>("verbose", default: false, suite: suite, secret: true)])
	}

	@Test("a secret key is left out of sync, with a diagnostic")
	func notSynced() {
		let key = Defaults.Key<String?>("syncedToken", suite: UserDefaults(suiteName: uniqueSuiteName())!, secret: true)
		let (_, diagnostics) = DiagnosticReporter.capturing {
			Defaults.iCloud.add(key)
		}
		#expect(!Defaults.iCloud.keys.contains(key))
		#expect(diagnostics.map(\.kind) == [.secretRefused])
		#expect(diagnostics.first?.key == "syncedToken")
	}
}

@Suite("A secret's stored form")
struct SecretEncodingTests {
	@Test("a String is UTF-8 text; other values, and a string that looks like a binary property list, are binary property lists")
	func forms() {
		let text = SecretEncoding.bytes(of: .string("pässword"))
		#expect(text.isText)
		#expect(text.data == Data("pässword".utf8))
		for value: PropertyListValue in [.string("bplist00 tricky"), .integer(42), .data(Data([0, 1, 2])), .array([.string("a"), .bool(true)]), .dictionary(["k": .double(1.5)])] {
			let bytes = SecretEncoding.bytes(of: value)
			#expect(!bytes.isText)
			#expect(bytes.data.starts(with: "bplist".utf8))
			#expect(SecretEncoding.value(of: bytes.data) == value)
		}

		#expect(SecretEncoding.value(of: text.data) == .string("pässword"))
		#expect(SecretEncoding.value(of: Data([0xFF, 0xFE, 0x00])) == .data(Data([0xFF, 0xFE, 0x00])))
		#expect(SecretEncoding.value(of: Data("bplist00garbage".utf8)) == nil)
	}
}

@Suite("A plain value of a key declared secret later")
struct SecretAdoptionTests {
	@Test("a value stored in the suite's file under a secret key's name moves to the secret store at the first read, and out of the file")
	func plainValueMoves() throws {
		let name = uniqueSuiteName()
		try withIsolatedDefaults(suites: [name: ["apiToken": "stored in the clear", "other": 1]]) { () throws in
			let suite = UserDefaults(suiteName: name)!
			let key = Defaults.Key<String?>("apiToken", suite: suite, secret: true)
			let suiteObject = key.suiteObject
			#expect(suiteObject.values.storedObject(forKey: "apiToken") as? String == "stored in the clear")
			#expect(Defaults[key] == "stored in the clear")
			#expect(suiteObject.values.storedObject(forKey: "apiToken") == nil)
			#expect(suiteObject.values.storedObject(forKey: "other") as? Int == 1)
			#expect(try suiteObject.secrets.load("apiToken", reporting: false).get() == .string("stored in the clear"))
			#expect(try key.readSecret() == "stored in the clear")
		}
	}
}

@Suite("Secret keys under load")
struct SecretLoadTests {
	@Test("four threads writing one secret key: memory ends with what the store ends with, and every read is a value some thread wrote")
	func concurrentWriters() async throws {
		let suite = TestSuite()
		let store = InMemorySecretStore()
		Suite.installSecretStore(store, for: suite.defaults)
		let key = Defaults.Key<String>("contended", default: "", suite: suite.defaults, secret: true)
		let writes = 200
		let torn = Locked(0)
		await withTaskGroup(of: Void.self) { group in
			for thread in 0..<4 {
				group.addTask {
					for index in 0..<writes {
						Defaults[key] = "writer \(thread) write \(index)"
						if !Defaults[key].hasPrefix("writer ") {
							torn.withLock { $0 += 1 }
						}
					}
				}
			}
		}

		#expect(torn.withLock { $0 } == 0)
		let stored = try #require(try store.secret(for: SecretItem(suite: suite.name, key: "contended")))
		#expect(SecretEncoding.value(of: stored.data) == .string(Defaults[key]))
	}

	@Test("a 1 MB Data secret and a thousand secret keys round-trip", .isolatedDefaults)
	func largeAndMany() throws {
		let suite = UserDefaults(suiteName: uniqueSuiteName())!
		let blob = Defaults.Key<Data>("blob", default: Data(), suite: suite, secret: true)
		let megabyte = Data((0..<1_048_576).map { UInt8(truncatingIfNeeded: $0 &* 31) })
		Defaults[blob] = megabyte
		#expect(Defaults[blob] == megabyte)
		#expect(try blob.loadSecretBlocking() == megabyte)

		let keys = (0..<1_000).map { Defaults.Key<Int>("many\($0)", default: -1, suite: suite, secret: true) }
		for (index, key) in keys.enumerated() {
			Defaults[key] = index
		}

		#expect(keys.enumerated().allSatisfy { Defaults[$1] == $0 })
	}
}

extension Defaults.Key {
	/// What ``Defaults/Key/readSecret()`` reads after memory is forgotten: the store's bytes decoded again.
	fileprivate func loadSecretBlocking() throws -> Value {
		let stored = try suiteObject.secrets.load(name, reporting: false).get()
		return try stored.map { try decodedSecret($0).get() } ?? defaultValue
	}
}
