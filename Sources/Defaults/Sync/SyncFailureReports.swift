import Foundation

/**
Which sync operations are failing, and since when: a remote that is down
fails every publish and every read, and reporting each one buries the one
line that matters. A failure is reported when it starts and again only when
its cause changes; the repeats are counted, and the count is reported when
the operation works again.

<!-- check: internal -->
```swift
var failures = SyncFailureReports()
let first = failures.failed(.publishing, cause: "connection refused", at: .now)   // a message
let again = failures.failed(.publishing, cause: "connection refused", at: .now)   // nil: counted
let back = failures.succeeded(.publishing, at: .now)   // "… works again after 2 failures …"
```
*/
struct SyncFailureReports {
	/// What failed.
	enum Operation: String, CaseIterable {
		case publishing = "publishing to the remote"
		case reading = "reading the remote"
	}

	private struct Outage {
		var cause: String
		let since: ContinuousClock.Instant
		var failures: Int
	}

	private var outages: [Operation: Outage] = [:]

	/// A failure of `operation`: the message to report when it is the first of an outage or its cause changed, else `nil` (it is counted).
	mutating func failed(_ operation: Operation, cause: String, at now: ContinuousClock.Instant) -> String? {
		guard var outage = outages[operation] else {
			outages[operation] = Outage(cause: cause, since: now, failures: 1)
			return "\(operation.rawValue) failed: \(cause); retrying (further failures are counted and reported when it works again)"
		}

		outage.failures += 1
		defer { outages[operation] = outage }
		guard outage.cause != cause else {
			return nil
		}

		let previous = outage.cause
		outage.cause = cause
		return "\(operation.rawValue) still fails, now because: \(cause) (before: \(previous)); retrying"
	}

	/// A success of `operation`: the message that ends its outage, or `nil` when it was not failing.
	mutating func succeeded(_ operation: Operation, at now: ContinuousClock.Instant) -> String? {
		guard let outage = outages.removeValue(forKey: operation) else {
			return nil
		}

		let seconds = (now - outage.since).timeInterval
		let count = outage.failures == 1 ? "1 failure" : "\(outage.failures) failures"
		return "\(operation.rawValue) works again after \(count) in \(String(format: "%.1f", seconds)) s (last cause: \(outage.cause))"
	}
}
