import Foundation

/**
State that is only ever touched while holding a lock.

Built on `NSLock` (a pthread mutex) rather than `Synchronization.Mutex`:
the thread sanitizer does not see `Mutex`'s futex-based locking on Linux and
reports every guarded access as a race, which would hide real ones.

<!-- check: internal -->
```swift
let counter = Locked(0)
counter.withLock { $0 += 1 }
```
*/
package final class Locked<State>: @unchecked Sendable {
	private let lock = NSLock()
	// Only touched under `lock`, which already excludes other accesses: the runtime's exclusivity check would repeat it at every call.
	@exclusivity(unchecked) private var state: State

	package init(_ state: State) {
		self.state = state
	}

	package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
		lock.lock()
		defer { lock.unlock() }
		return try body(&state)
	}
}
