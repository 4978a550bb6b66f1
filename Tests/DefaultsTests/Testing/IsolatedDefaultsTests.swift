import DefaultsTestSupport
import DefaultsTesting
import Foundation
import Testing
@testable import Defaults

/// The app's suite of its own, as an app names it.
private let isolationSuiteName = "defaults-tests.isolation.app-group"

// `UserDefaults` is not `Sendable` in swift-corelibs-foundation; Foundation documents it as thread-safe.
nonisolated(unsafe) private let isolationSuite = UserDefaults(suiteName: isolationSuiteName)!

/// Keys declared as an app declares them: globals, created before any test isolates itself.
extension Defaults.Keys {
	fileprivate static let isolatedVolume = Key<Double>("isolatedVolume", default: 0.5)
	fileprivate static let isolatedName = Key<String>("isolatedName", default: "none", suite: isolationSuite)
	fileprivate static let isolatedTags = Key<[String]>("isolatedTags", default: [])
	fileprivate static let isolatedOther = Key<Int>("isolatedOther", default: 0, suite: isolationSuite)
}

/// How many parallel test cases write the same keys: `DEFAULTS_ISOLATION_CASES=500` for a longer run.
private let parallelCases = TestEnvironment.count("DEFAULTS_ISOLATION_CASES", default: 50)

/// What code outside any isolation reads: a plain thread has no task-local values.
private func readOutsideIsolation<Value: Sendable>(_ read: @escaping @Sendable () -> Value) -> Value {
	let result = Locked<Value?>(nil)
	let done = DispatchSemaphore(value: 0)
	Thread {
		result.withLock { $0 = read() }
		done.signal()
	}.start()
	done.wait()
	return result.withLock { $0! }
}

@Suite("Tests that isolate themselves: .isolatedDefaults and withIsolatedDefaults")
struct IsolatedDefaultsTests {
	@Test("parallel tests writing the same global keys each see only their own", .isolatedDefaults, arguments: 0..<parallelCases)
	func parallelCasesSeeOnlyTheirOwnValues(index: Int) async {
		// Every case starts empty, whatever the others wrote, before or meanwhile.
		#expect(Defaults[.isolatedVolume] == 0.5)
		#expect(Defaults[.isolatedName] == "none")
		#expect(!Defaults.Keys.isolatedVolume.suite.hasKey(.isolatedVolume))

		for round in 0..<20 {
			Defaults[.isolatedVolume] = Double(index)
			isolationSuite[.isolatedName] = "case \(index)"
			Defaults[.isolatedTags].append("\(index).\(round)")
			await Task.yield()
			#expect(Defaults[.isolatedVolume] == Double(index))
			#expect(Defaults[.isolatedName] == "case \(index)")
			#expect(UserDefaults(suiteName: isolationSuiteName)![.isolatedName] == "case \(index)")
		}

		#expect(Defaults[.isolatedTags] == (0..<20).map { "\(index).\($0)" })
	}

	@Test func valuesAreGoneAfterTheIsolation() {
		let before = readOutsideIsolation { Defaults[.isolatedVolume] }
		withIsolatedDefaults {
			Defaults[.isolatedVolume] = 0.123
			isolationSuite[.isolatedName] = "left behind?"
		}

		#expect(readOutsideIsolation { Defaults[.isolatedVolume] } == before)
		#expect(readOutsideIsolation { isolationSuite[.isolatedName] } != "left behind?")
		withIsolatedDefaults {
			#expect(Defaults[.isolatedVolume] == 0.5)
			#expect(Defaults[.isolatedName] == "none")
		}
	}

	@Test func realSuitesAreNeitherReadNorChanged() throws {
		let suite = TestSuite()
		let key = Defaults.Key<Int>(suite.keyName(), default: 0, suite: suite.defaults)
		Defaults[key] = 7
		try Defaults.flush(suite: suite.defaults)
		let fileBefore = try Data(contentsOf: suite.fileURL)

		withIsolatedDefaults {
			#expect(Defaults[key] == 0)   // the real value is not read
			Defaults[key] = 8
			suite.defaults[key] += 1
			Defaults.reset(key)
			Defaults[key] = 9
			suite.defaults.removeAll()
			Defaults[key] = 10
			#expect(throws: Never.self) { try Defaults.flush(suite: suite.defaults) }
			#expect(Defaults[key] == 10)
		}

		#expect(Defaults[key] == 7)
		try Defaults.flush(suite: suite.defaults)
		#expect(try Data(contentsOf: suite.fileURL) == fileBefore)
	}

	@Test func aKeyFirstCreatedInsideATestIsBoundToTheRealSuite() {
		let suite = TestSuite()
		let name = suite.keyName()
		let key = withIsolatedDefaults {
			let key = Defaults.Key<Int>(name, default: 1, suite: suite.defaults)
			Defaults[key] = 2
			return key
		}

		#expect(Defaults[key] == 1)
		#expect(!suite.defaults.hasKey(key))
		Defaults[key] = 3
		#expect(Defaults[key] == 3)
	}

	@Test func inMemoryDefaultsStayAsTheyAre() {
		let suite = InMemoryDefaults(["count": 4])
		let key = Defaults.Key<Int>("count", default: 0, suite: suite)
		withIsolatedDefaults {
			#expect(Defaults[key] == 4)
			Defaults[key] = 5
		}

		#expect(Defaults[key] == 5)
	}

	@Test func nestedIsolationsAreSeparate() {
		withIsolatedDefaults(["isolatedVolume": 0.1]) {
			withIsolatedDefaults {
				#expect(Defaults[.isolatedVolume] == 0.5)
				Defaults[.isolatedVolume] = 0.9
			}

			#expect(Defaults[.isolatedVolume] == 0.1)
		}
	}

	// MARK: Starting values

	@Test(.isolatedDefaults(["isolatedVolume": 0.8, "isolatedTags": ["a", "b"]], suites: [isolationSuiteName: ["isolatedName": "given"]]))
	func initialValues() {
		#expect(Defaults[.isolatedVolume] == 0.8)
		#expect(Defaults[.isolatedTags] == ["a", "b"])
		#expect(Defaults[.isolatedName] == "given")
		#expect(Defaults.Keys.isolatedVolume.suite.hasKey(.isolatedVolume))
		Defaults.reset(.isolatedVolume)
		#expect(Defaults[.isolatedVolume] == 0.5)
	}

	@Test(.isolatedDefaults(["isolatedVolume": 0.8]), arguments: 0..<4)
	func initialValuesAreFreshForEveryCase(index: Int) {
		#expect(Defaults[.isolatedVolume] == 0.8)
		Defaults[.isolatedVolume] = Double(index)
	}

	@Test func aValueThatIsNotAPropertyListIsLeftOutAndReported() {
		let (_, diagnostics) = DiagnosticReporter.claiming(where: { $0.kind == .unencodableValue && $0.message.contains("isolatedVolume") }) {
			withIsolatedDefaults(["isolatedVolume": NotAPropertyList(), "isolatedTags": ["kept"]]) {
				#expect(Defaults[.isolatedVolume] == 0.5)
				#expect(Defaults[.isolatedTags] == ["kept"])
			}
		}

		#expect(diagnostics.count == 1)
	}

	// MARK: Launch arguments

	@Test(.isolatedDefaults([:], launchArguments: ["isolatedVolume": "0.3"]))
	func launchArgumentsTypedByHand() {
		#expect(Defaults[.isolatedVolume] == 0.3)
		#expect(isolationSuite[.isolatedVolume] == 0.3)   // every suite reads the launch arguments
		Defaults[.isolatedVolume] = 0.9                   // stored, but the argument wins
		#expect(Defaults[.isolatedVolume] == 0.3)
		#expect(Defaults.Keys.isolatedVolume.suite.hasKey(.isolatedVolume))
	}

	@Test(.isolatedDefaults(typedArguments))
	func launchArgumentsGivenWithKeys() {
		#expect(Defaults[.isolatedTags] == ["-x", "y"])
		#expect(Defaults[.isolatedVolume] == 0.25)
	}

	@Test func launchArgumentsArePerTest() {
		withIsolatedDefaults(launchArguments: ["isolatedVolume": 0.7]) {
			#expect(Defaults[.isolatedVolume] == 0.7)
		}

		withIsolatedDefaults {
			#expect(Defaults[.isolatedVolume] == 0.5)
		}
	}

	// MARK: The real preferences folder

	@Test func nothingReachesTheRealPreferencesFolder() throws {
		let sentinel = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-isolation-\(UUID().uuidString)", isDirectory: true)
		let system = sentinel.appendingPathComponent("system", isDirectory: true)
		let home = sentinel.appendingPathComponent("config", isDirectory: true)
		try FileManager.default.createDirectory(at: system, withIntermediateDirectories: true)
		try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
		defer { try? FileManager.default.removeItem(at: sentinel) }

		var environment = ProcessInfo.processInfo.environment
		environment["XDG_CONFIG_HOME"] = home.path
		environment["XDG_CONFIG_DIRS"] = system.path
		let result = try ChildProcess.run("DefaultsTestHelper", ["isolated-writes"], environment: environment)
		#expect(result.status == 0, "\(result.errorOutput)")
		#expect(result.lines == ["isolated 42 group 42 tags 1", "outside 0 group none"])
		#expect(try FileManager.default.contentsOfDirectory(atPath: home.path) == [])
	}
}

private struct NotAPropertyList: Sendable {}

private let typedArguments: IsolatedDefaults = {
	var arguments = Defaults.LaunchArguments()
	arguments[.isolatedTags] = ["-x", "y"]
	arguments[.isolatedVolume] = 0.25
	return IsolatedDefaults(launchArguments: arguments)
}()

@Suite("Where isolation reaches: task-local values", .isolatedDefaults(["isolatedVolume": 0.8]))
struct IsolationBoundaryTests {
	@Test func childTasksAndUnstructuredTasksAreIsolated() async {
		Defaults[.isolatedVolume] = 0.9
		async let child = Defaults[.isolatedVolume]
		let fromTask = await Task { Defaults[.isolatedVolume] }.value
		let fromGroup = await withTaskGroup(of: Double.self) { group in
			group.addTask { Defaults[.isolatedVolume] }
			return await group.next()!
		}

		#expect(await child == 0.9)
		#expect(fromTask == 0.9)
		#expect(fromGroup == 0.9)
	}

	@Test func detachedTasksThreadsAndDispatchQueuesSeeTheRealSuites() async {
		Defaults[.isolatedVolume] = 0.9
		let real = readOutsideIsolation { Defaults[.isolatedVolume] }
		#expect(real != 0.9)

		let fromDetached = await Task.detached { Defaults[.isolatedVolume] }.value
		let fromQueue = await withCheckedContinuation { continuation in
			DispatchQueue.global().async {
				continuation.resume(returning: Defaults[.isolatedVolume])
			}
		}

		#expect(fromDetached == real)
		#expect(fromQueue == real)
	}

	@Test func anIsolationStartedOnAThreadWithoutATaskCoversThatThreadAndTheTasksItStarts() {
		let seen = readOutsideIsolation {
			withIsolatedDefaults(["isolatedVolume": 0.3]) {
				let onThread = Defaults[.isolatedVolume]
				let fromTask = Locked<Double?>(nil)
				let done = DispatchSemaphore(value: 0)
				Task {
					fromTask.withLock { $0 = Defaults[.isolatedVolume] }
					done.signal()
				}
				done.wait()
				return [onThread, fromTask.withLock { $0! }]
			}
		}

		#expect(seen == [0.3, 0.3])
	}
}

@Suite("Observers inside isolated tests hear only their test's changes")
struct IsolatedObservationTests {
	/// Writes from everywhere else: another isolation, and the real suites (writing back what they hold) from a plain thread.
	private func writeElsewhere(_ value: Double) {
		IsolatedDefaults().run {
			Defaults[.isolatedVolume] = value
			Defaults[.isolatedOther] = Int(value)
		}

		_ = readOutsideIsolation {
			Defaults[.isolatedVolume] = Defaults[.isolatedVolume]
			Defaults[.isolatedOther] = Defaults[.isolatedOther]
			return true
		}
	}

	@Test(.isolatedDefaults, arguments: 0..<8)
	func observe(index: Int) {
		let seen = Recorder<Double>()
		let observation = Defaults.observe(.isolatedVolume, options: []) { seen.append($0.newValue) }
		writeElsewhere(99)
		Defaults[.isolatedVolume] = Double(index)
		Defaults[.isolatedVolume] = Double(index) + 0.5
		observation.invalidate()
		#expect(seen.values == [Double(index), Double(index) + 0.5])
	}

	@Test(.isolatedDefaults, arguments: 0..<8)
	func wholeSuiteObservation(index: Int) {
		let seen = Recorder<String>()
		let observation = Defaults.observe(suite: isolationSuite) { seen.append($0.name) }
		writeElsewhere(99)
		isolationSuite[.isolatedName] = "mine \(index)"
		observation.invalidate()
		#expect(seen.values == ["isolatedName"])
	}

	@Test(.isolatedDefaults, arguments: 0..<8)
	func updates(index: Int) async {
		var iterator = Defaults.updates(.isolatedVolume).makeAsyncIterator()
		#expect(await iterator.next() == 0.5)
		writeElsewhere(99)
		Defaults[.isolatedVolume] = Double(index)
		#expect(await iterator.next() == Double(index))
	}

	@Test(.isolatedDefaults, arguments: 0..<8)
	func suiteUpdates(index: Int) async {
		var iterator = Defaults.updates(suite: isolationSuite).makeAsyncIterator()
		writeElsewhere(99)
		Defaults[.isolatedVolume] = Double(index)   // another suite: not heard
		isolationSuite[.isolatedName] = "mine \(index)"
		#expect(await iterator.next()?.name == "isolatedName")
	}

	@Test(.isolatedDefaults, arguments: 0..<8)
	func defaultPropertyWrapper(index: Int) async {
		struct Player {
			@Default(.isolatedVolume) var volume
		}

		let player = Player()
		#expect(player.volume == 0.5)
		let seen = Recorder<Double>()
		let observation = player.$volume.observe(options: []) { seen.append($0.newValue) }
		writeElsewhere(99)
		player.volume = Double(index)
		observation.invalidate()
		#expect(seen.values == [Double(index)])
		#expect(Defaults[.isolatedVolume] == Double(index))
	}

	@Test(.isolatedDefaults)
	func anObservationStartedInsideKeepsHearingTheTestsCopyFromAnyThread() async {
		let seen = Recorder<Double>()
		let observation = Defaults.observe(.isolatedVolume, options: []) { seen.append($0.newValue) }
		// A task started inside shares the isolation, whichever thread it runs on.
		await Task { Defaults[.isolatedVolume] = 0.1 }.value
		// Detached: the real suite, which this observation does not watch.
		await Task.detached { Defaults[.isolatedVolume] = Defaults[.isolatedVolume] }.value
		observation.invalidate()
		#expect(seen.values == [0.1])
	}
}
