import DefaultsTestSupport
import Foundation
import Testing
@testable import Defaults

/// Rounds of the racing test; raise for a long run: `DEFAULTS_STRESS_ROUNDS=200 swift test --sanitize=thread --filter LastRead`.
private let racingRounds = TestEnvironment.count("DEFAULTS_STRESS_ROUNDS", default: 20)

/// A key returns what it last read while its suite has not changed: every change to any layer must end that (issue 41).
@Suite("A key's last read")
struct LastReadTests {
	@Test("a read after a write, a removal, a reset or a registered default sees it")
	func readsSeeEveryChange() {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 7, suite: suite.defaults)
		#expect(suite.defaults[key] == 7)
		#expect(suite.defaults[key] == 7, "remembered")
		suite.defaults[key] = 1
		#expect(suite.defaults[key] == 1)
		Defaults.reset(key)
		#expect(suite.defaults[key] == 7)
		let optional = Defaults.Key<String?>(suite.keyName("optional"), suite: suite.defaults)
		#expect(suite.defaults[optional] == nil)
		suite.defaults[optional] = "set"
		#expect(suite.defaults[optional] == "set")
		suite.defaults[optional] = nil
		#expect(suite.defaults[optional] == nil, "a removal that leaves nothing stored is a change too")
		// Another key of another type under the same name: each key its own last read, never the other's.
		let sameName = Defaults.Key<String>(key.name, default: "text", suite: suite.defaults)
		suite.defaults[key] = 3
		#expect(suite.defaults[sameName] == "text")
		#expect(suite.defaults[key] == 3)
	}

	@Test("a synchronized raw UserDefaults write (once flushed) and a write through another key of the same name are seen by the next read")
	func rawAndOtherKeyWrites() throws {
		let suite = TestSuite()
		let name = suite.keyName()
		let key = Defaults.Key<Int>(name, default: 0, suite: suite.defaults)
		let twin = Defaults.Key<Int>(name, default: 0, suite: suite.defaults)
		#expect(suite.defaults[key] == 0)
		suite.defaults[twin] = 5
		#expect(suite.defaults[key] == 5)
		try Defaults.flush(suite: suite.defaults)
		suite.defaults.set(6, forKey: name)
		suite.defaults.synchronize()
		try Defaults.flush(suite: suite.defaults)
		let fresh = Defaults.Key<Int>(name, default: 0, suite: suite.defaults)
		#expect(suite.defaults[fresh] == 6)
		#expect(suite.defaults[key] == 6, "a key that read before reads what a key that never read does")
	}

	@Test("a dynamic default is called at every read that finds nothing: never remembered")
	func dynamicDefaultIsNotRemembered() {
		let suite = TestSuite()
		let calls = Locked(0)
		let key = Defaults.Key<Int>(suite.keyName(), suite: suite.defaults) { calls.withLock { $0 += 1; return $0 } }
		#expect(suite.defaults[key] == 1)
		#expect(suite.defaults[key] == 2)
	}

	@Test("a class instance is never handed to two reads: each read decodes its own")
	func classInstancesAreNotShared() throws {
		let suite = TestSuite()
		let key = Defaults.Key<URLComponentsBox>(suite.keyName(), default: URLComponentsBox(path: "a"), suite: suite.defaults)
		suite.defaults[key] = URLComponentsBox(path: "b")
		let first = suite.defaults[key]
		first.path = "changed by the caller"
		#expect(suite.defaults[key].path == "b")
	}

	/// Plain values of at most 8 bytes are remembered in an atomic word, with no suite beside them: the version alone must tell suites apart.
	@Test("one key read through two suites in turn returns each suite's value, for every plain type kept without a lock")
	func plainValuesThroughTwoSuites() {
		enum Mode: String, Defaults.Serializable { case light, dark }
		let first = TestSuite()
		let second = TestSuite()
		let number = Defaults.Key<Int>(first.keyName("number"), default: 0, suite: first.defaults)
		let flag = Defaults.Key<Bool>(number.name + "flag", default: false, suite: first.defaults)
		let ratio = Defaults.Key<Double>(number.name + "ratio", default: 0, suite: first.defaults)
		let mode = Defaults.Key<Mode>(number.name + "mode", default: .light, suite: first.defaults)
		second.defaults[number] = 2
		second.defaults[flag] = true
		second.defaults[ratio] = 0.5
		second.defaults[mode] = .dark
		var firstFlag = false
		for round in 0..<50 {
			first.defaults[number] = round
			#expect(first.defaults[number] == round)
			#expect(second.defaults[number] == 2)
			#expect(first.defaults[number] == round, "read again, remembered")
			#expect(first.defaults[flag] == firstFlag && second.defaults[flag] == true)
			#expect(first.defaults[ratio] == 0 && second.defaults[ratio] == 0.5)
			#expect(first.defaults[mode] == .light && second.defaults[mode] == .dark)
			firstFlag = round.isMultiple(of: 2)
			first.defaults[flag] = firstFlag
			#expect(first.defaults[flag] == firstFlag)
		}
	}

	@Test("threads writing their own keys and a shared one, and reading at once: each reads its own last write, and the shared key one of the values written")
	func racingReadersAndWriters() async {
		let suite = TestSuite()
		let shared = Defaults.Key<Int>(suite.keyName("shared"), default: -1, suite: suite.defaults)
		let threads = 4
		let own = (0..<threads).map { Defaults.Key<Int>(suite.keyName("own\($0)"), default: -1, suite: suite.defaults) }
		let rounds = racingRounds * 250
		let failures = Locked<[String]>([])
		await withTaskGroup(of: Void.self) { group in
			for thread in 0..<threads {
				group.addTask {
					for round in 0..<rounds {
						suite.defaults[own[thread]] = round
						let read = suite.defaults[own[thread]]
						if read != round {
							failures.withLock { $0.append("thread \(thread) wrote \(round), read \(read)") }
						}

						if round % 3 == thread % 3 {
							suite.defaults[shared] = thread * rounds + round
						}

						let seen = suite.defaults[shared]
						if seen != -1, !(0..<(threads * rounds)).contains(seen) {
							failures.withLock { $0.append("the shared key read \(seen), never written") }
						}
					}
				}
			}
		}

		#expect(failures.withLock { $0.prefix(5) } == [])
	}
}

/// A class stored through `NSSecureCoding`-free bridging: a `Codable` class, whose instances a caller can change.
final class URLComponentsBox: Codable, Defaults.Serializable, @unchecked Sendable {
	var path: String

	init(path: String) {
		self.path = path
	}
}
