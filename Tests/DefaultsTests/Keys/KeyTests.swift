import DefaultsTestSupport
import Foundation
import Synchronization
import Testing
@testable import Defaults

@Suite("Keys: defaults, registration, names, identity")
struct KeyTests {
	@Test func staticDefaultIsRegisteredForRawReads() {
		let suite = TestSuite()
		let flag = suite.keyName("flag")
		let time = suite.keyName("time")
		_ = Defaults.Key<Bool>(flag, default: true, suite: suite.defaults)
		_ = Defaults.Key<SampleTime>(time, default: SampleTime(hour: 1, minute: 0), suite: suite.defaults)

		#expect(suite.defaults.bool(forKey: flag))
		#expect(suite.defaults.string(forKey: time) == #"{"hour":1,"minute":0}"#)
	}

	@Test func nilDefaultIsNotRegistered() {
		let suite = TestSuite()
		let name = suite.keyName()
		_ = Defaults.Key<String?>(name, suite: suite.defaults)
		#expect(suite.raw(name) == nil)
	}

	@Test func dynamicDefaultIsLazyAndNeverRegistered() {
		let suite = TestSuite()
		let name = suite.keyName()
		let calls = Atomic(0)
		let key = Defaults.Key<Int>(name, suite: suite.defaults) {
			calls.add(1, ordering: .relaxed)
			return 10
		}

		#expect(calls.load(ordering: .relaxed) == 0, "not called in init")
		#expect(suite.raw(name) == nil, "not registered")
		#expect(Defaults[key] == 10)
		#expect(Defaults[key] == 10)
		#expect(calls.load(ordering: .relaxed) == 2, "called on each read that finds nothing")

		Defaults[key] = 3
		#expect(Defaults[key] == 3)
		#expect(calls.load(ordering: .relaxed) == 2, "not called when a value is stored")
	}

	@Test func compoundAssignmentGoesThroughTheSetter() {
		let suite = TestSuite()
		let key = Defaults.Key<Double>(suite.keyName(), default: 0.5, suite: suite.defaults)
		Defaults[key] += 0.25
		Defaults[key] *= 2
		#expect(Defaults[key] == 1.5)

		let list = Defaults.Key<[String]>(suite.keyName(), default: [], suite: suite.defaults)
		Defaults[list].append("a")
		Defaults[list] += ["b"]
		#expect(Defaults[list] == ["a", "b"])
	}

	@Test func isDefaultValue() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 1, suite: suite.defaults)
		#expect(key.isDefaultValue)
		Defaults[key] = 2
		#expect(!key.isDefaultValue)
		Defaults[key] = 1
		#expect(key.isDefaultValue)

		let optional = Defaults.Key<String?>(suite.keyName(), suite: suite.defaults)
		#expect(optional.isDefaultValue)
		Defaults[optional] = "x"
		#expect(!optional.isDefaultValue)
	}

	@Test func rawWritesAreSeenByTheLibraryAndViceVersa() {
		let suite = TestSuite()
		let name = suite.keyName()
		let key = Defaults.Key<String>(name, default: "default", suite: suite.defaults)

		suite.defaults.setRawAndSynchronize("raw", forKey: name)
		#expect(Defaults[key] == "raw")

		// Raw reads see the library's writes once they are flushed.
		Defaults[key] = "typed"
		try? Defaults.flush(suite: suite.defaults)
		#expect(suite.defaults.string(forKey: name) == "typed")

		let count = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		Defaults[count] = 41
		try? Defaults.flush(suite: suite.defaults)
		#expect(suite.defaults.integer(forKey: count.name) == 41)
	}

	@Test func suiteSubscriptUsesThatSuite() {
		let first = TestSuite()
		let second = TestSuite()
		let name = first.keyName()
		let key = Defaults.Key<Int>(name, default: 0, suite: first.defaults)

		second.defaults[key] = 5
		#expect(second.defaults[key] == 5)
		#expect(first.raw(name) as? Int == 0, "only the registered default is visible in the key's own suite")
		#expect(Defaults[key] == 0)
	}

	@Test func keysAreEqualByNameAndSuite() {
		let suite = TestSuite()
		let other = TestSuite()
		let name = suite.keyName()
		let a = Defaults.Key<Int>(name, default: 0, suite: suite.defaults)
		let b = Defaults.Key<Int>(name, default: 0, suite: suite.defaults)
		let c = Defaults.Key<Int>(name, default: 0, suite: other.defaults)

		#expect(a as Defaults._AnyKey == b)
		#expect(a as Defaults._AnyKey != c)
		#expect(Set<Defaults._AnyKey>([a, b, c]).count == 2)
	}

	@Test(arguments: ["naïve", "@special", "dotted.name", ""])
	func invalidNameIsReportedWithTheName(_ name: String) {
		let suite = TestSuite()
		let reported = diagnostics {
			_ = Defaults.Key<Int?>(name, suite: suite.defaults)
		}

		#expect(reported.map(\.kind) == [.invalidKeyName])
		#expect(reported.first?.key == name)
		#expect(reported.first?.description.contains("'\(name)'") == true)
	}

	@Test func invalidNameStillStoresOnLinux() {
		let suite = TestSuite()
		let name = "dotted.\(suite.keyName())"
		var key: Defaults.Key<Int>?
		_ = diagnostics { key = Defaults.Key<Int>(name, default: 0, suite: suite.defaults) }
		let dotted = try! #require(key)
		Defaults[dotted] = 3
		#expect(Defaults[dotted] == 3)
	}

	@Test(arguments: ["quality", "camelCase_with-dash", "a1"])
	func validNamesAreSilent(_ base: String) {
		let suite = TestSuite()
		let reported = diagnostics {
			_ = Defaults.Key<Int?>(suite.keyName(base), suite: suite.defaults)
		}

		#expect(reported.isEmpty)
	}

	@Test func registeredDefaultsBelongToTheirSuite() {
		let first = TestSuite()
		let second = TestSuite()
		let name = first.keyName()
		let reported = diagnostics {
			let one = Defaults.Key<Int>(name, default: 1, suite: first.defaults)
			let two = Defaults.Key<Int>(name, default: 2, suite: second.defaults)
			#expect(Defaults[one] == 1)
			#expect(Defaults[two] == 2)
			#expect(first.defaults[two] == 1, "a read through the first suite finds the first suite's registered default")
		}

		#expect(reported.isEmpty)
	}
}
