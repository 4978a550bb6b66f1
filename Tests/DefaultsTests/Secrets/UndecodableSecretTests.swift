import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// Stored bytes no key of the type wrote (another tool's, a hand-made credential, damage), each holding the sentinel no diagnostic may show.
enum UndecodableSecret: String, CaseIterable, Sendable, CustomTestStringConvertible {
	case notUTF8, notJSON, anotherShape, deeplyNestedJSON, damagedBinaryPropertyList, binaryPropertyListOfAnotherType

	var testDescription: String {
		rawValue
	}

	var bytes: Data {
		switch self {
		case .notUTF8:
			Data([0xC3, 0x28]) + Data("SENTINEL".utf8) + Data([0xFF, 0xFE])
		case .notJSON:
			Data("SENTINEL{not json".utf8)
		case .anotherShape:
			Data(#"{"name":"SENTINEL"}"#.utf8)
		case .deeplyNestedJSON:
			Data((String(repeating: "[", count: 100_000) + "\"SENTINEL\"").utf8)
		case .damagedBinaryPropertyList:
			Data("bplist00".utf8) + Data(repeating: 0xFF, count: 64) + Data("SENTINEL".utf8)
		case .binaryPropertyListOfAnotherType:
			BinaryPropertyListWriter.encode(.array([.string("SENTINEL"), .integer(1)]))
		}
	}
}

/// Where undecodable bytes are put: the in-memory store (as `secret-tool` would put them in the keyring) or a credential file.
enum UndecodableSource: String, CaseIterable, Sendable {
	case store, credential
}

/**
Secret values that do not read as the key's type: the key's default, one
diagnostic naming the key (never the bytes), a typed error from the typed API,
never a crash. The keyring's case with `secret-tool` is in
SecretServiceUndecodableTests.
*/
@Suite("Secret keys: stored values that do not decode")
struct UndecodableSecretTests {
	@Test("a Codable, an Int and a String key read their defaults with one diagnostic each, never showing the bytes", arguments: UndecodableSecret.allCases, UndecodableSource.allCases)
	func undecodable(_ value: UndecodableSecret, from source: UndecodableSource) throws {
		let folder = try CredentialsFolder([:])
		let desktop = InMemorySecretStore()
		let suite = folder.suite(desktop: desktop)
		for name in ["login", "port", "token"] {
			switch source {
			case .store:
				try desktop.store(SecretBytes(data: value.bytes, isText: true), for: SecretItem(suite: suite.name, key: name))
			case .credential:
				try value.bytes.write(to: folder.url.appendingPathComponent(name))
			}
		}

		expectUndecodable(Defaults.Key<Login?>("login", suite: suite.defaults, secret: true))
		expectUndecodable(Defaults.Key<Int>("port", default: 443, suite: suite.defaults, secret: true))
		let token = Defaults.Key<String>("token", default: "fallback", suite: suite.defaults, secret: true)
		// Text that is valid UTF-8 is a String's value, whatever it says.
		if String(validating: value.bytes, as: UTF8.self) != nil && !PropertyListValue.isBinaryPropertyList(value.bytes) {
			let (read, diagnostics) = DiagnosticReporter.capturing { Defaults[token] }
			#expect(read == String(decoding: value.bytes, as: UTF8.self))
			#expect(diagnostics.isEmpty, "\(diagnostics)")
		} else {
			expectUndecodable(token)
		}
	}

	@Test("fuzz: damaged copies of stored values read as a value of the key's type or its default, never crash, never show the bytes (DEFAULTS_FUZZ_TRIALS)")
	func fuzz() throws {
		let trials = FuzzSettings.trials(default: 200)
		let seed = FuzzSettings.seed
		let originals: [Data] = [
			SecretEncoding.bytes(of: .dictionary(["user": .string("SENTINEL"), "ids": .array([.integer(1), .double(2.5)])])).data,
			SecretEncoding.bytes(of: .data(Data("SENTINEL".utf8))).data,
			SecretEncoding.bytes(of: .string(#"{"user":"ada","password":"SENTINEL"}"#)).data,
		]
		let suite = TestSuite()
		let store = InMemorySecretStore()
		Suite.installSecretStore(store, for: suite.defaults)
		let (_, diagnostics) = try DiagnosticReporter.capturing {
			for trial in 0..<trials {
				let mutant = Self.damaged(originals[trial % originals.count], seed: seed, trial: trial)
				// A name per trial and type, so each read reaches the store rather than memory.
				for type in 0..<4 {
					try store.store(SecretBytes(data: mutant, isText: false), for: SecretItem(suite: suite.name, key: "fuzz\(trial)-\(type)"))
				}

				_ = Defaults[Defaults.Key<Login?>("fuzz\(trial)-0", suite: suite.defaults, secret: true)]
				_ = Defaults[Defaults.Key<[String: Int]>("fuzz\(trial)-1", default: [:], suite: suite.defaults, secret: true)]
				_ = Defaults[Defaults.Key<Data>("fuzz\(trial)-2", default: Data(), suite: suite.defaults, secret: true)]
				_ = Defaults[Defaults.Key<String>("fuzz\(trial)-3", default: "", suite: suite.defaults, secret: true)]
			}
		}
		#expect(diagnostics.allSatisfy { !$0.description.contains("SENTINEL") }, "seed \(seed)")
	}

	/// `bytes` with a few bytes overwritten, cut short, or with bytes put in: the damage a stored secret meets.
	private static func damaged(_ bytes: Data, seed: UInt64, trial: Int) -> Data {
		var random = FuzzRandom(seed: seed, index: trial)
		var result = [UInt8](bytes)
		for _ in 0...random.below(4) {
			let at = random.below(result.count)
			switch random.below(3) {
			case 0:
				result[at] = UInt8.random(in: .min ... .max, using: &random)
			case 1:
				result.removeSubrange(at...)
			default:
				result.insert(UInt8.random(in: .min ... .max, using: &random), at: at)
			}

			if result.isEmpty {
				break
			}
		}

		return Data(result)
	}
}
