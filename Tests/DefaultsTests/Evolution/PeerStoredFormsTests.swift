import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

// The types of the migration guides' examples, and the values the peers stored for them.

private struct Frog: Codable, Hashable, Defaults.Serializable {
	let name: String
}

private enum Pond: String, Defaults.Serializable {
	case north, south
}

private struct Session: Codable, Hashable, Defaults.Serializable {
	let id: UUID
	let title: String
}

private enum Tab: String, Defaults.Serializable {
	case home, search, create
}

private struct Filter: Equatable, Codable, Defaults.Serializable {
	var query: String
}

/// Not private: Foundation archives only classes it can name.
final class PeerGuidePalette: NSObject, NSSecureCoding, Defaults.Serializable {
	static var supportsSecureCoding: Bool { true }
	let colors: [String]

	init(colors: [String]) {
		self.colors = colors
	}

	init?(coder: NSCoder) {
		colors = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "colors") as? [String] ?? []
	}

	func encode(with coder: NSCoder) {
		coder.encode(colors as NSArray, forKey: "colors")
	}
}

private let session = Session(id: UUID(uuidString: "6C1E0E55-5D0B-4C16-9A3C-2F3B8A0E9D11")!, title: "Morning run")

/**
Each guide's "values your app already stored" code, run on the stored forms of
the library it replaces, planted as that library writes them. The guides show
the same calls (`storeInCurrentForm` with the keys of their examples) against
`.standard`; here every peer gets a suite of its own.
*/
@Suite("Migration guides lose nothing: each peer's stored forms read back after the guide's migration")
struct PeerStoredFormsTests {
	private func plant(_ values: [String: Any], in suite: TestSuite) {
		for (name, object) in values {
			Suite.of(suite.defaults).change(name, to: object, origin: .local)
		}
	}

	/// The guide's migration, then every key read back: values, no diagnostic, and the current form stored.
	private func migrate(_ suite: TestSuite, _ keys: [Defaults._AnyKey]) throws -> [Defaults.Diagnostic] {
		try diagnostics {
			try Defaults.migrate([
				Defaults.Migration(version: 1) { settings in
					try settings.storeInCurrentForm(keys)
				},
			], suite: suite.defaults)
		}
	}

	@Test func swiftyUserDefaults() throws {
		let suite = TestSuite()
		let frogs = Defaults.Key<[Frog]?>("frogs", suite: suite.defaults)
		let bestFrog = Defaults.Key<Frog?>("bestFrog", suite: suite.defaults)
		let pond = Defaults.Key<Pond>("pond", default: .north, suite: suite.defaults)
		let palette = Defaults.Key<PeerGuidePalette?>("palette", suite: suite.defaults)
		// SwiftyUserDefaults: Codable values and arrays of them as JSON `Data`, RawRepresentable as the raw value, NSCoding as a keyed archive.
		plant([
			"frogs": try JSONEncoder().encode([Frog(name: "Kermit"), Frog(name: "Toad")]),
			"bestFrog": try JSONEncoder().encode(Frog(name: "Kermit")),
			"pond": "south",
			"palette": try NSKeyedArchiver.archivedData(withRootObject: PeerGuidePalette(colors: ["green"]), requiringSecureCoding: false),
		], in: suite)

		#expect(try migrate(suite, [frogs, bestFrog, pond, palette]).isEmpty)

		let reads = diagnostics {
			#expect(Defaults[frogs] == [Frog(name: "Kermit"), Frog(name: "Toad")])
			#expect(Defaults[bestFrog] == Frog(name: "Kermit"))
			#expect(Defaults[pond] == .south)
			#expect(Defaults[palette]?.colors == ["green"])
		}
		#expect(reads.isEmpty, "stored in the current forms: \(reads)")
		#expect(suite.raw("frogs") as? [String] == [#"{"name":"Kermit"}"#, #"{"name":"Toad"}"#])
	}

	@Test(arguments: ["json", "plist"])
	func swiftUserDefaults(strategy: String) throws {
		let suite = TestSuite()
		let sessionKey = Defaults.Key<Session?>("session", suite: suite.defaults)
		let tab = Defaults.Key<Tab>("tab", default: .home, suite: suite.defaults)
		// swift-user-defaults: Codable with the .json strategy as JSON `Data`, with .plist as property-list `Data`; RawRepresentable as the raw value.
		let encoded = strategy == "json" ? try JSONEncoder().encode(session) : try PropertyListEncoder().encode(session)
		plant(["session": encoded, "tab": "search"], in: suite)

		#expect(try migrate(suite, [sessionKey, tab]).isEmpty)

		let reads = diagnostics {
			#expect(Defaults[sessionKey] == session)
			#expect(Defaults[tab] == .search)
		}
		#expect(reads.isEmpty, "\(reads)")
	}

	@Test func userDefaultWrapper() throws {
		let suite = TestSuite()
		let filter = Defaults.Key<Filter>("filter", default: Filter(query: ""), suite: suite.defaults)
		let pond = Defaults.Key<Pond>("pond", default: .north, suite: suite.defaults)
		let palette = Defaults.Key<PeerGuidePalette?>("palette", suite: suite.defaults)
		let pageSize = Defaults.Key<Int?>("pageSize", suite: suite.defaults)
		// A `DefaultsValueConvertible` wrapper: Codable as JSON `Data`, RawRepresentable as the raw value, NSCoding as a keyed archive, plist types as they are.
		plant([
			"filter": try JSONEncoder().encode(Filter(query: "swift")),
			"pond": "south",
			"palette": try NSKeyedArchiver.archivedData(withRootObject: PeerGuidePalette(colors: ["red"]), requiringSecureCoding: true),
			"pageSize": 50,
		], in: suite)

		#expect(try migrate(suite, [filter, pond, palette, pageSize]).isEmpty)

		let reads = diagnostics {
			#expect(Defaults[filter] == Filter(query: "swift"))
			#expect(Defaults[pond] == .south)
			#expect(Defaults[palette]?.colors == ["red"])
			#expect(Defaults[pageSize] == 50)
		}
		#expect(reads.isEmpty, "\(reads)")
	}

	@Test func defaultsOnApplePlatforms() throws {
		let suite = TestSuite()
		let frogs = Defaults.Key<[Frog]>("frogs", default: [], suite: suite.defaults)
		let sessionKey = Defaults.Key<Session?>("session", suite: suite.defaults)
		let pond = Defaults.Key<Pond>("pond", default: .north, suite: suite.defaults)
		// Defaults 9: Codable as a JSON string, arrays element by element, RawRepresentable as the raw value.
		plant([
			"frogs": [#"{"name":"Kermit"}"#],
			"session": String(decoding: try JSONEncoder().encode(session), as: UTF8.self),
			"pond": "south",
		], in: suite)

		let reads = diagnostics {
			#expect(Defaults[frogs] == [Frog(name: "Kermit")])
			#expect(Defaults[sessionKey] == session)
			#expect(Defaults[pond] == .south)
		}
		#expect(reads.isEmpty, "the same forms: nothing to migrate: \(reads)")
		#expect(try migrate(suite, [frogs, sessionKey, pond]).isEmpty)
	}

	@Test func aValueInNoFormItsTypeReadsFailsTheMigrationAndKeepsIt() throws {
		let suite = TestSuite()
		let frogs = Defaults.Key<[Frog]?>("frogs", suite: suite.defaults)
		plant(["frogs": Data("not json".utf8)], in: suite)

		let reported = diagnostics {
			#expect(throws: Defaults.MigrationError.self) {
				try Defaults.migrate([
					Defaults.Migration(version: 1) { settings in
						try settings.storeInCurrentForm([frogs])
					},
				], suite: suite.defaults)
			}
		}

		#expect(reported.map(\.kind).contains(.migrationFailed))
		#expect(suite.raw("frogs") as? Data == Data("not json".utf8), "nothing lost")
	}
}
