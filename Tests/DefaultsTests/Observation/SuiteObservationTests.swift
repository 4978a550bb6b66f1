import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// Whole-suite observers also hear the global domain, which every suite reads: other tests write it
/// (`defaults write -g`), so each test looks only at the names it uses.
@Suite("A whole suite, observed: every change to every key, with its name")
struct SuiteObservationTests {
	@Test func writesResetsAndRemoveAllAreHeardWithTheirNames() throws {
		let suite = TestSuite()
		let first = Defaults.Key<Int>(suite.keyName("first"), default: 0, suite: suite.defaults)
		let second = Defaults.Key<String>(suite.keyName("second"), default: "", suite: suite.defaults)
		let heard = Locked<[Defaults.SuiteChange]>([])
		let observation = Defaults.observe(suite: suite.defaults) { @Sendable change in
			heard.withLock { $0.append(change) }
		}
		defer { observation.invalidate() }

		Defaults[first] = 1
		Defaults[second] = "two"
		Defaults.reset(first)
		Defaults[first] = 3
		Defaults.removeAll(suite: suite.defaults)

		let changes = heard.withLock { $0 }.filter { [first.name, second.name].contains($0.name) }
		#expect(Array(changes.prefix(4)) == [
			.init(name: first.name),
			.init(name: second.name),
			.init(name: first.name),
			.init(name: first.name),
		])
		#expect(Set(changes.dropFirst(4)) == [.init(name: first.name), .init(name: second.name)], "removeAll: one change per key removed")
		#expect(changes.count == 6, "\(changes)")
		#expect(changes[0].affects(first) && !changes[0].affects(second))
	}

	@Test func aKeyNobodyDeclaredIsHeardToo() throws {
		let suite = TestSuite()
		let name = suite.keyName("undeclared")
		let heard = Locked<[String]>([])
		let observation = Defaults.observe(suite: suite.defaults) { @Sendable change in
			heard.withLock { $0.append(change.name) }
		}
		defer { observation.invalidate() }

		try Defaults.migrate([Defaults.Migration(version: 1) { _ in }], suite: suite.defaults)
		try Defaults.migrate([
			Defaults.Migration(version: 1) { _ in },
			Defaults.Migration(version: 2) { settings in try settings.setObject("moved", forKey: name) },
		], suite: suite.defaults)

		// The migration's own change is heard once it commits; the version it records is no key of the user's.
		#expect(heard.withLock { $0 }.filter { $0 == name || $0.hasPrefix("@") } == [name])
	}

	@Test func anotherProcessesWriteIsHeardWithItsName() async throws {
		let suite = TestSuite()
		let name = suite.keyName("external")
		let heard = Locked<[Defaults.SuiteChange]>([])
		let observation = Defaults.observe(suite: suite.defaults) { @Sendable change in
			heard.withLock { $0.append(change) }
		}
		defer { observation.invalidate() }

		#expect(try HelperProcess.run(["write", suite.name, name, "7", "flush"]).status == 0)

		#expect(await eventually { heard.withLock { $0.contains(.init(name: name)) } })
		#expect(suite.defaults.object(forKey: name) as? Int == 7)
	}

	@Test func updatesYieldEveryChangeInOrder() async throws {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName("counted"), default: 0, suite: suite.defaults)
		let updates = Defaults.updates(suite: suite.defaults)

		let reader = Task {
			var values: [Defaults.SuiteChange] = []
			for await change in updates where change.affects(key) {
				values.append(change)
				if values.count == 3 {
					break
				}
			}
			return values
		}

		// The stream registers when it is made, so nothing written from here on is missed.
		for value in 1...3 {
			Defaults[key] = value
		}

		#expect(await reader.value == Array(repeating: .init(name: key.name), count: 3))
	}

	@MainActor
	@Test func aHandlerRegisteredOnTheMainActorRunsThere() async throws {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName("main"), default: 0, suite: suite.defaults)
		var heard: [String] = []
		let observation = Defaults.observe(suite: suite.defaults) { change in
			MainActor.assertIsolated()
			heard.append(change.name)   // main-actor state, no lock
		}
		defer { observation.invalidate() }

		await Task.detached { Defaults[key] = 1 }.value

		#expect(await eventually { heard.filter { $0 == key.name } == [key.name] }, "\(heard)")
	}

	@Test func anInvalidatedObservationHearsNothing() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName("stopped"), default: 0, suite: suite.defaults)
		let heard = Locked<[String]>([])
		let observation = Defaults.observe(suite: suite.defaults) { @Sendable change in
			heard.withLock { $0.append(change.name) }
		}

		Defaults[key] = 1
		observation.invalidate()
		Defaults[key] = 2

		#expect(heard.withLock { $0 }.filter { $0 == key.name }.count == 1)
	}

	@Test func otherSuitesAreNotHeard() {
		let suite = TestSuite()
		let other = TestSuite()
		let otherKey = Defaults.Key<Int>(other.keyName(), default: 0, suite: other.defaults)
		let heard = Locked<[String]>([])
		let observation = Defaults.observe(suite: suite.defaults) { @Sendable change in
			heard.withLock { $0.append(change.name) }
		}
		defer { observation.invalidate() }

		Defaults[otherKey] = 1

		#expect(!heard.withLock { $0 }.contains(otherKey.name))
	}
}
