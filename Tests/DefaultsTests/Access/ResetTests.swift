import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

@Suite("Reset and removeAll")
struct ResetTests {
	private struct Fixture {
		let suite = TestSuite()
		let count: Defaults.Key<Int>
		let name: Defaults.Key<String?>
		let time: Defaults.Key<SampleTime>

		init() {
			count = Defaults.Key<Int>(suite.keyName("count"), default: 1, suite: suite.defaults)
			name = Defaults.Key<String?>(suite.keyName("name"), suite: suite.defaults)
			time = Defaults.Key<SampleTime>(suite.keyName("time"), default: SampleTime(hour: 0, minute: 0), suite: suite.defaults)
			Defaults[count] = 5
			Defaults[name] = "x"
			Defaults[time] = SampleTime(hour: 9, minute: 9)
		}

		func expectAllReset(sourceLocation: SourceLocation = #_sourceLocation) {
			#expect(Defaults[count] == 1, sourceLocation: sourceLocation)
			#expect(Defaults[name] == nil, sourceLocation: sourceLocation)
			#expect(Defaults[time] == SampleTime(hour: 0, minute: 0), sourceLocation: sourceLocation)
		}
	}

	@Test func keyReset() {
		let fixture = Fixture()
		fixture.count.reset()
		#expect(Defaults[fixture.count] == 1)
		#expect(Defaults[fixture.name] == "x", "other keys untouched")
	}

	@Test func variadicAnyKeys() {
		let fixture = Fixture()
		Defaults.reset(fixture.count, fixture.name, fixture.time)
		fixture.expectAllReset()
	}

	@Test func arrayOfAnyKeys() {
		let fixture = Fixture()
		let keys: [Defaults._AnyKey] = [fixture.count, fixture.name, fixture.time]
		Defaults.reset(keys)
		fixture.expectAllReset()
	}

	@Test func variadicGenericKeys() {
		let fixture = Fixture()
		Defaults.reset(fixture.count, fixture.time)
		#expect(Defaults[fixture.count] == 1)
		#expect(Defaults[fixture.time] == SampleTime(hour: 0, minute: 0))
		#expect(Defaults[fixture.name] == "x")
	}

	@Test func names() {
		let fixture = Fixture()
		Defaults.reset(fixture.count.name, fixture.name.name, suite: fixture.suite.defaults)
		Defaults.reset([fixture.time.name], suite: fixture.suite.defaults)
		fixture.expectAllReset()
	}

	@Test func removeAllKeepsRegisteredDefaults() {
		let fixture = Fixture()
		let raw = fixture.suite.keyName("raw")
		fixture.suite.defaults.setRawAndSynchronize("raw", forKey: raw)

		Defaults.removeAll(suite: fixture.suite.defaults)

		fixture.expectAllReset()
		#expect(fixture.suite.raw(raw) == nil)
		#expect(fixture.suite.defaults.integer(forKey: fixture.count.name) == 1, "registered default survives")
	}

	@Test func userDefaultsRemoveAll() {
		let fixture = Fixture()
		fixture.suite.defaults.removeAll()
		fixture.expectAllReset()
	}

	@Test func removeAllLeavesOtherSuitesAlone() {
		let fixture = Fixture()
		let other = Fixture()
		Defaults.removeAll(suite: fixture.suite.defaults)
		#expect(Defaults[other.count] == 5)
	}
}
