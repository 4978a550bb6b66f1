import Defaults
import Foundation

/**
Private, in-memory preferences for one test, with no change to the code under
test.

While ``run(_:)-(()->Result)`` runs its closure, every suite the code touches —
`.standard`, suites it names with `UserDefaults(suiteName:)`, keys declared as
globals long before — reads and writes a copy of its own that starts empty
(or with the values given here). Nothing reaches a file or the developer's
real preferences, and tests running in parallel never see each other's
values. Observation (`Defaults.observe`, `Defaults.updates`, whole-suite
observation, `@Default`, `@ObservableDefault`, publishers) started inside
hears only that closure's changes. The copies are gone when it returns.

In Swift Testing, use the ``IsolatedDefaultsTrait`` (`@Test(.isolatedDefaults)`);
in XCTest, subclass ``IsolatedDefaultsTestCase`` or call
``withIsolatedDefaults(_:suites:launchArguments:_:)``. This type holds the
starting values for all of them.

```swift
extension Defaults.Keys {
	static let volume = Key<Double>("volume", default: 0.5)
}

let loud = IsolatedDefaults(["volume": 0.8], launchArguments: ["muted": true])
loud.run {
	print(Defaults[.volume]) // 0.8
	Defaults[.volume] = 1    // this closure's copy only
}
print(Defaults[.volume]) // whatever the real suite holds
```

Values are given as stored (a property list, as `UserDefaults.set` takes
them): a `Double` for a `Key<Double>`, an enum's raw value, a `Codable`
value's JSON string. To start from typed values, write them with the keys
at the start of the test. A value that is not a property list is left out
and reported (as an `unencodableValue` diagnostic, or as an issue of the
test with the trait).

## Where isolation reaches

It is carried by a Swift task-local value, so it reaches exactly what
task-local values reach:

- The closure itself, every function it calls, `async let`, task groups and
  `Task { }` started inside it: isolated.
- `Task.detached`, a `Thread`, a `DispatchQueue` block, a callback from a C
  library: not isolated. Code there reads and writes the process's real
  suites (its files, and what every other test shares) — as it does outside
  any test. Start such work inside a `Task { }` instead, or pass values in.
- A synchronous closure run on the calling thread without any task (an
  XCTest method) is isolated on that thread only.

Observations are bound to the suite they were registered on: an observation
started inside the closure keeps hearing the copy (from any thread), and one
started before it keeps hearing the real suite. The same holds for
`@ObservableDefault` properties, which start observing on their first read.
A suite made with `InMemoryDefaults` is already private and stays as it is.
Raw `UserDefaults` calls (`UserDefaults.standard.set(_:forKey:)`) go to
Foundation, not through the library, and are not isolated.
*/
public struct IsolatedDefaults: Sendable {
	private let standard: [String: PropertyListValue]
	private let suites: [String: [String: PropertyListValue]]
	private let launchArguments: [String: PropertyListValue]
	/// Why a value given was left out, one message each.
	let problems: [String]

	/**
	Starting values: `values` for `.standard`, `suites` for suites the code
	names, by suite name, and `launchArguments` as if the process had been
	launched with them (`-name value`; a launch argument overrides the stored
	value, for every suite).

	```swift
	let isolated = IsolatedDefaults(
		["volume": 0.8],
		suites: ["group.com.example.app": ["isUnicornMode": true]],
		launchArguments: ["quality": "0.2"] // as typed on a command line
	)
	isolated.run {
		print(Defaults[.quality]) // 0.2
	}
	```
	*/
	public init(_ values: [String: any Sendable] = [:], suites: [String: [String: any Sendable]] = [:], launchArguments: [String: any Sendable] = [:]) {
		var problems: [String] = []
		standard = Self.propertyLists(values, in: "the standard suite", problems: &problems)
		var converted: [String: [String: PropertyListValue]] = [:]
		for (name, values) in suites {
			converted[name] = Self.propertyLists(values, in: "suite '\(name)'", problems: &problems)
		}
		self.suites = converted
		self.launchArguments = Self.propertyLists(launchArguments, in: "the launch arguments", problems: &problems)
		self.problems = problems
	}

	/**
	Starting values with launch arguments given with the keys, typed: each is
	read as the launched program would read it.

	```swift
	var arguments = Defaults.LaunchArguments()
	arguments[.quality] = 0.2

	IsolatedDefaults(launchArguments: arguments).run {
		print(Defaults[.quality]) // 0.2
	}
	```
	*/
	public init(_ values: [String: any Sendable] = [:], suites: [String: [String: any Sendable]] = [:], launchArguments: Defaults.LaunchArguments) {
		self.init(values, suites: suites)
		var problems = problems
		let arguments: [String: PropertyListValue]
		do {
			arguments = try launchArguments.storedValues()
		} catch {
			problems.append("\(error); no launch arguments were given")
			arguments = [:]
		}

		self = IsolatedDefaults(standard: standard, suites: self.suites, launchArguments: arguments, problems: problems)
	}

	private init(standard: [String: PropertyListValue], suites: [String: [String: PropertyListValue]], launchArguments: [String: PropertyListValue], problems: [String]) {
		self.standard = standard
		self.suites = suites
		self.launchArguments = launchArguments
		self.problems = problems
	}

	/**
	Runs `body` with every suite it touches replaced by a fresh in-memory copy.

	```swift
	IsolatedDefaults().run {
		Defaults[.volume] = 0.1
		print(Defaults[.volume]) // 0.1
	}
	```
	*/
	public func run<Result>(_ body: () throws -> Result) rethrows -> Result {
		reportProblems()
		return try isolation().run(body)
	}

	/**
	Runs `body` with every suite it touches, and every suite the tasks it
	starts with `Task { }` or in a task group touch, replaced by a fresh
	in-memory copy.

	```swift
	await IsolatedDefaults(["volume": 0.8]).run {
		for await volume in Defaults.updates(.volume) {
			print(volume) // 0.8, and this closure's changes after it
			break
		}
	}
	```
	*/
	public func run<Result>(isolation actor: isolated (any Actor)? = #isolation, _ body: () async throws -> Result) async rethrows -> Result {
		reportProblems()
		return try await isolation().run(isolation: actor, body)
	}

	/// A fresh isolation with these values: each run gets its own copies.
	func isolation() -> SuiteIsolation {
		SuiteIsolation(standard: standard, suites: suites, arguments: launchArguments)
	}

	private func reportProblems() {
		for problem in problems {
			DiagnosticReporter.report(.unencodableValue, key: nil, problem)
		}
	}

	private static func propertyLists(_ values: [String: any Sendable], in place: String, problems: inout [String]) -> [String: PropertyListValue] {
		var converted: [String: PropertyListValue] = [:]
		for (name, value) in values {
			guard let stored = PropertyListValue(value) else {
				problems.append("the isolated value for '\(name)' in \(place) is a \(type(of: value)), not a property-list value; it was left out")
				continue
			}

			converted[name] = stored
		}

		return converted
	}
}

/**
Runs `body` with private, in-memory preferences: every suite it touches
starts empty (or with the values given) and nothing reaches a file. For
XCTest and any code outside a Swift Testing trait; see ``IsolatedDefaults``
for what is isolated and where isolation stops.

```swift
import XCTest

final class PlayerTests: XCTestCase {
	func testMuteRemembersTheVolume() {
		withIsolatedDefaults(["volume": 0.8]) {
			Defaults[.volume] = 0
			XCTAssertEqual(Defaults[.volume], 0)
		}
	}
}
```
*/
public func withIsolatedDefaults<Result>(
	_ values: [String: any Sendable] = [:],
	suites: [String: [String: any Sendable]] = [:],
	launchArguments: [String: any Sendable] = [:],
	_ body: () throws -> Result
) rethrows -> Result {
	try IsolatedDefaults(values, suites: suites, launchArguments: launchArguments).run(body)
}

/**
Runs `body` with private, in-memory preferences, which the tasks it starts
(`Task { }`, task groups, `async let`) share; `Task.detached` does not.
See ``IsolatedDefaults`` for what is isolated and where isolation stops.

```swift
import XCTest

final class SyncingTests: XCTestCase {
	func testVolumeUpdates() async {
		await withIsolatedDefaults {
			let first = Task { await Defaults.updates(.volume).first { _ in true } }
			print(await first.value ?? 0) // 0.5, the key's default: this test's copy is empty
		}
	}
}
```
*/
public func withIsolatedDefaults<Result>(
	_ values: [String: any Sendable] = [:],
	suites: [String: [String: any Sendable]] = [:],
	launchArguments: [String: any Sendable] = [:],
	isolation actor: isolated (any Actor)? = #isolation,
	_ body: () async throws -> Result
) async rethrows -> Result {
	try await IsolatedDefaults(values, suites: suites, launchArguments: launchArguments).run(isolation: actor, body)
}
