#if canImport(Testing)
import Defaults
import Testing

/**
A test trait that gives each test, and each case of a parameterized test,
private in-memory preferences, with no change to the code under test.

Every suite the test touches — `.standard`, suites the app names, keys
declared as globals — starts empty (or with the values given) in that test,
nothing reaches a file, and tests running in parallel never see each other's
values. Observation started in the test hears only the test's changes. On a
`@Suite`, it applies to every test in it, each with its own copies. See
``IsolatedDefaults`` for exactly where isolation reaches (tasks started with
`Task { }` do, `Task.detached`, threads and dispatch queues do not).

```swift
extension Defaults.Keys {
	static let volume = Key<Double>("volume", default: 0.5)
}

@Test(.isolatedDefaults) func volumeStartsAtItsDefault() {
	#expect(Defaults[.volume] == 0.5)
	Defaults[.volume] = 0.9 // seen by this test only
}

@Test(.isolatedDefaults(["volume": 0.8])) func volumeGivenByTheTest() {
	#expect(Defaults[.volume] == 0.8)
}

@Suite(.isolatedDefaults) struct PlayerTests {
	@Test func mute() {
		Defaults[.volume] = 0
		#expect(Defaults[.volume] == 0)
	}
}
```
*/
public struct IsolatedDefaultsTrait: TestTrait, SuiteTrait, TestScoping {
	/// The values each test starts with.
	public let defaults: IsolatedDefaults

	/// On a suite, the trait isolates each test of it, and of the suites nested in it.
	public var isRecursive: Bool {
		true
	}

	/// Runs the test (or one case of it) with fresh copies of every suite.
	public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
		for problem in defaults.problems {
			Issue.record(Comment(rawValue: problem))
		}

		try await defaults.isolation().run {
			try await function()
		}
	}
}

/// `.isolatedDefaults`, as a test or suite trait.
extension Trait where Self == IsolatedDefaultsTrait {
	/**
	Gives the test private in-memory preferences that start empty.

	```swift
	@Test(.isolatedDefaults) func startsFromDefaults() {
		#expect(Defaults[.volume] == 0.5)
	}
	```
	*/
	public static var isolatedDefaults: Self {
		Self(defaults: IsolatedDefaults())
	}

	/**
	Gives the test private in-memory preferences that start with `values` in
	`.standard`, each suite in `suites` (by name) with its values, and
	`launchArguments` as if the process had been launched with them. Values
	are given as stored (see ``IsolatedDefaults``).

	```swift
	@Test(.isolatedDefaults(["volume": 0.8], launchArguments: ["isUnicornMode": true]))
	func loudUnicorns() {
		#expect(Defaults[.volume] == 0.8)
		#expect(Defaults[.isUnicornMode])
		Defaults[.isUnicornMode] = false   // stored, but the launch argument still wins
		#expect(Defaults[.isUnicornMode])
	}
	```
	*/
	public static func isolatedDefaults(
		_ values: [String: any Sendable],
		suites: [String: [String: any Sendable]] = [:],
		launchArguments: [String: any Sendable] = [:]
	) -> Self {
		Self(defaults: IsolatedDefaults(values, suites: suites, launchArguments: launchArguments))
	}

	/**
	Gives the test private in-memory preferences that start as `defaults` says:
	for values shared by several tests, or launch arguments given with keys.

	```swift
	let slowNetwork: IsolatedDefaults = {
		var arguments = Defaults.LaunchArguments()
		arguments[.quality] = 0.2
		return IsolatedDefaults(launchArguments: arguments)
	}()

	@Test(.isolatedDefaults(slowNetwork)) func lowQuality() {
		#expect(Defaults[.quality] == 0.2)
	}
	```
	*/
	public static func isolatedDefaults(_ defaults: IsolatedDefaults) -> Self {
		Self(defaults: defaults)
	}
}
#endif
