import Foundation

/**
A body started on a thread of its own, and what it returned once the caller
waits for it: for work that must not run on the caller's thread (one inside
a lock or an observer's call, or one to be stopped meanwhile), or that may
hang where the test must not.

```swift
let reading = BackgroundThread { try? store.secret(for: item) }
let read = try #require(reading.wait(atMost: .seconds(5)), "the read hung")
```
*/
public final class BackgroundThread<Value: Sendable>: @unchecked Sendable {
	private let lock = NSLock()
	private var value: Value?
	private let done = DispatchSemaphore(value: 0)

	/// Starts `body` at once.
	public init(_ body: @escaping @Sendable () -> Value) {
		Thread { [self] in
			let returned = body()
			lock.withLock { value = returned }
			done.signal()
		}.start()
	}

	/// What the body returned, however long it takes.
	public func wait() -> Value {
		done.wait()
		// Signalled again, so that a later wait returns too.
		done.signal()
		return lock.withLock { value! }
	}

	/// What the body returned, or `nil` when it did not return within `limit` (a hang: the thread is left behind).
	public func wait(atMost limit: Duration) -> Value? {
		guard done.wait(timeout: .now() + limit / .seconds(1)) == .success else {
			return nil
		}

		done.signal()
		return lock.withLock { value }
	}
}
