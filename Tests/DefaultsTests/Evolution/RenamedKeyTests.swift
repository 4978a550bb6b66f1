import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

@Suite("Renamed keys: a value stored under a previous name moves to the new one")
struct RenamedKeyTests {
	@Test func theValueMovesOnceAndThePreviousNameIsRemovedInTheSameWrite() throws {
		let suite = TestSuite()
		let old = suite.keyName("old")
		let new = suite.keyName("new")
		let oldKey = Defaults.Key<Int>(old, default: 0, suite: suite.defaults)
		Defaults[oldKey] = 5
		try Defaults.flush(suite: suite.defaults)

		let renamed = Defaults.Key<Int>(new, default: 0, suite: suite.defaults, previousNames: [old])

		#expect(Defaults[renamed] == 5)
		#expect(Defaults[oldKey] == 0)
		// Written at once, in one replace of the file: no flush was needed, and no reader ever sees both names.
		let file = try #require(suite.fileContents())
		#expect(file[new] as? Int == 5)
		#expect(file[old] == nil)
	}

	@Test func aValueStoredUnderTheNewNameIsKeptAndNothingMoves() throws {
		let suite = TestSuite()
		let old = suite.keyName("old")
		let new = suite.keyName("new")
		Defaults[Defaults.Key<Int>(old, default: 0, suite: suite.defaults)] = 5
		Defaults[Defaults.Key<Int>(new, default: 0, suite: suite.defaults)] = 9
		try Defaults.flush(suite: suite.defaults)

		let renamed = Defaults.Key<Int>(new, default: 0, suite: suite.defaults, previousNames: [old])

		#expect(Defaults[renamed] == 9)
		#expect(suite.fileContents()?[old] as? Int == 5, "a previous name is left alone once the new one has a value")
	}

	@Test func theFirstPreviousNameWithAValueWinsAndEveryOneIsRemoved() throws {
		let suite = TestSuite()
		let names = (0..<3).map { suite.keyName("v\($0)") }
		Defaults[Defaults.Key<String>(names[1], default: "", suite: suite.defaults)] = "second"
		Defaults[Defaults.Key<String>(names[2], default: "", suite: suite.defaults)] = "oldest"
		try Defaults.flush(suite: suite.defaults)

		let renamed = Defaults.Key<String>(suite.keyName("now"), default: "", suite: suite.defaults, previousNames: names)

		#expect(Defaults[renamed] == "second")
		let file = try #require(suite.fileContents())
		#expect(names.allSatisfy { file[$0] == nil })
	}

	@Test func aValueNotYetFlushedMovesToo() {
		let suite = TestSuite()
		let old = suite.keyName("old")
		Defaults[Defaults.Key<[String]>(old, default: [], suite: suite.defaults)] = ["a", "b"]

		let renamed = Defaults.Key<[String]>(suite.keyName("new"), default: [], suite: suite.defaults, previousNames: [old])

		#expect(Defaults[renamed] == ["a", "b"])
		#expect(suite.fileContents()?[old] == nil)
	}

	@Test func aCodableValueKeepsItsStoredForm() throws {
		struct Window: Codable, Equatable, Defaults.Serializable {
			var width: Int
			var height: Int
		}

		let suite = TestSuite()
		let old = suite.keyName("old")
		Defaults[Defaults.Key<Window?>(old, suite: suite.defaults)] = Window(width: 800, height: 600)
		try Defaults.flush(suite: suite.defaults)

		let renamed = Defaults.Key<Window?>(suite.keyName("new"), suite: suite.defaults, previousNames: [old])

		#expect(Defaults[renamed] == Window(width: 800, height: 600))
	}

	@Test func observersOfTheNewKeyHearTheMove() throws {
		let suite = TestSuite()
		let old = suite.keyName("old")
		let new = suite.keyName("new")
		Defaults[Defaults.Key<Int>(old, default: 0, suite: suite.defaults)] = 5
		try Defaults.flush(suite: suite.defaults)
		let changes = Recorder<(Int, Int)>()
		let observation = Defaults.observe(Defaults.Key<Int>(new, default: 0, suite: suite.defaults), options: []) { change in
			changes.append((change.oldValue, change.newValue))
		}
		defer { observation.invalidate() }

		_ = Defaults.Key<Int>(new, default: 0, suite: suite.defaults, previousNames: [old])

		#expect(changes.values.map(\.0) == [0])
		#expect(changes.values.map(\.1) == [5])
	}

	@Test func anotherProcessSeesTheMovedValue() throws {
		let suite = TestSuite()
		let old = suite.keyName("old")
		let new = suite.keyName("new")
		#expect(try HelperProcess.run(["write", suite.name, old, "7", "flush"]).status == 0)

		_ = Defaults.Key<Int>(new, default: 0, suite: suite.defaults, previousNames: [old])

		let domain = try suite.domainReadByAnotherProcess()
		#expect(domain[new] as? Int == 7)
		#expect(domain[old] == nil)
	}
}
