import Foundation
import Synchronization

/**
One isolated test's private copies of the suites its code touches: the hook
behind `DefaultsTesting`'s `.isolatedDefaults` trait and `withIsolatedDefaults`.

While ``run(_:)`` runs, every access that resolves a suite — a key's
``Defaults/_AnyKey/suiteObject``, ``Suite/of(_:)`` — gets this isolation's
copy of that suite instead of the process-wide one: a suite that keeps its
values in memory only (no file, no global domain, no administrator), made on
first use from the values the test gave. Observers registered inside the test
are registered on the copies, so they hear the test's writes only.

It is a task-local value: it reaches child tasks and `Task {}` made inside
``run(_:)``, but not `Task.detached`, a `Thread` or a `DispatchQueue` block,
which see the process-wide suites.

Production pays one relaxed atomic load per access for it: the task-local is
read only once an isolation has ever started in the process.

<!-- check: internal -->
```swift
let isolation = SuiteIsolation(standard: ["volume": PropertyListValue(0.8)!], suites: [:], arguments: [:])
isolation.run {
	print(Defaults[.volume]) // 0.8, in this closure only
}
```
*/
package final class SuiteIsolation: Sendable {
	/// The isolation of the running test, if any.
	@TaskLocal private static var current: SuiteIsolation?

	/// Set when the first isolation starts and never cleared: until then, accesses skip the task-local read.
	private static let hasStarted = Atomic<Bool>(false)

	private let stored: [SuiteIdentity: [String: PropertyListValue]]
	private let arguments: [String: PropertyListValue]
	/// The copies made so far, by the identity of the suite each stands for.
	private let copies = Locked<[SuiteIdentity: Suite]>([:])

	/**
	An isolation whose copy of `.standard` starts with `standard`, whose copy
	of each suite named in `suites` starts with its values, and whose copies
	all read `arguments` as their launch arguments.
	*/
	package init(standard: [String: PropertyListValue], suites: [String: [String: PropertyListValue]], arguments: [String: PropertyListValue]) {
		var stored: [SuiteIdentity: [String: PropertyListValue]] = [:]
		for (name, values) in suites {
			stored[.named(name)] = values
		}
		stored[.standard] = standard
		self.stored = stored
		self.arguments = arguments
	}

	/// Runs `body` with every suite it resolves replaced by this isolation's copy.
	package func run<Result>(_ body: () throws -> Result) rethrows -> Result {
		Self.hasStarted.store(true, ordering: .relaxed)
		return try Self.$current.withValue(self, operation: body)
	}

	/// Runs `body` with every suite it resolves replaced by this isolation's copy, on the caller's actor.
	package func run<Result>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result) async rethrows -> Result {
		Self.hasStarted.store(true, ordering: .relaxed)
		return try await Self.$current.withValue(self, operation: body, isolation: isolation)
	}

	/// Whether an isolation may be active: `false` until the first one starts, so production reads skip the task-local.
	@inline(__always)
	static var mayBeActive: Bool {
		hasStarted.load(ordering: .relaxed)
	}

	/// The copy of the suite `defaults` reads and writes in the current isolation; `nil` outside one, or for a suite already in memory.
	static func copy(standingFor defaults: UserDefaults) -> Suite? {
		guard let isolation = current else {
			return nil
		}

		return isolation.copy(of: SuiteIdentity.resolve(defaults), defaults: defaults)
	}

	/// The copy of `suite` in the current isolation; `nil` outside one, or for a suite already in memory.
	static func copy(standingFor suite: Suite) -> Suite? {
		current?.copy(of: suite.identity, defaults: suite.defaults)
	}

	private func copy(of identity: SuiteIdentity, defaults: UserDefaults) -> Suite? {
		// A suite that is already private to the code that made it (`InMemoryDefaults`) stays as it is.
		if case .inMemory = identity {
			return nil
		}

		return copies.withLock { copies in
			if let copy = copies[identity] {
				return copy
			}

			// No file, no global domain, no administrator: the copy knows only what the test gave it.
			let values = OwnedSuiteValues(stored: stored[identity] ?? [:], arguments: arguments.mapValues(\.object), global: [:])
			let copy = Suite(identity: .inMemory(UUID()), defaults: defaults, values: values, unfiled: .memoryOnly)
			copies[identity] = copy
			return copy
		}
	}
}

extension Suite {
	/// This suite, or the current isolated test's copy of it; out of line, so the production path stays a load and a branch.
	@inline(never)
	func isolatedCopy() -> Suite {
		SuiteIsolation.copy(standingFor: self) ?? self
	}
}
