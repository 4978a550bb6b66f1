import Foundation

/**
Whether `condition` holds within `timeout`, checked every few milliseconds
without blocking the caller's actor: for changes another thread, task or
process makes.

The limit only matters when the test fails: it is long, because on a loaded
2-core machine the tests that block their threads (waiting for child
processes) can hold back the task that makes the change for many seconds.

```swift
#expect(await eventually { Defaults[key] == 2 })
```
*/
public func eventually(
	isolation: isolated (any Actor)? = #isolation,
	timeout: Duration = .seconds(60),
	_ condition: () async throws -> Bool
) async rethrows -> Bool {
	let deadline = ContinuousClock.now + timeout
	while try await !condition() {
		if ContinuousClock.now >= deadline {
			return false
		}

		// Not `Thread.sleep`: that would hold one of the few threads other tests run on.
		try? await Task.sleep(for: .milliseconds(2))
	}

	return true
}
