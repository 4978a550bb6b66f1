import Testing
@testable import Defaults

/// The key-name rules, each with the reason a diagnostic gives; the first rule a name breaks is the one named.
@Suite("Key names")
struct KeyNameTests {
	@Test(arguments: [
		("", "a key name cannot be empty"),
		("volume", nil),
		("snake_case-and-dashes 1", nil),
		("café", "a key name must be ASCII"),
		("@café", "a key name must be ASCII"),
		("a\u{301}", "a key name must be ASCII"),
		("@volume", "a key name cannot start with '@'"),
		("@a.b", "a key name cannot start with '@'"),
		("a@b", nil),
		("a.b", "a key name cannot contain '.'"),
		(".", "a key name cannot contain '.'"),
		("trailing.", "a key name cannot contain '.'"),
	] as [(String, String?)])
	func rules(name: String, problem: String?) {
		#expect(KeyName.problem(with: name) == problem)
	}

	@Test func theLibrarysBookkeepingIsRefusedAsAKeyButStoredByTheLibrary() {
		#expect(KeyName.problem(with: KeyName.migrationVersion) != nil)
		#expect(KeyName.problem(storing: KeyName.migrationVersion) == nil)
	}
}
