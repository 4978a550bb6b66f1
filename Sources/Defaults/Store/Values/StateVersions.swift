import Synchronization

/**
The versions of what reads find: every change to a suite's values
(``OwnedSuiteValues``) or to its secrets (``SuiteSecrets``) takes the next one.
Numbered across the process, so no two states of any two suites, or of a
suite's values and its secrets, share one: a key's last read
(``LastReadLocks``) is trusted while its source is still at the version it was
read at, whichever source and suite that was.

<!-- check: internal -->
```swift
let version = StateVersions.next()   // 1, then 2, …; 0 is never given
```
*/
enum StateVersions {
	private static let counter = Atomic<UInt64>(0)

	/// A version no state of any suite had before.
	static func next() -> UInt64 {
		counter.wrappingAdd(1, ordering: .relaxed).newValue
	}
}
