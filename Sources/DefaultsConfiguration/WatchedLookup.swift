#if Configuration
import Configuration
import Defaults

/// A watched lookup's outcome, comparable so that unchanged values are not delivered again.
struct WatchedLookup: Sendable, Equatable {
	let result: Result<LookupResult, any Error>

	init(_ result: Result<LookupResult, any Error>) {
		self.result = result
	}

	static func == (lhs: WatchedLookup, rhs: WatchedLookup) -> Bool {
		switch (lhs.result, rhs.result) {
		case (.success(let left), .success(let right)):
			left == right
		case (.failure(let left), .failure(let right)):
			String(describing: left) == String(describing: right)
		default:
			false
		}
	}
}
#endif
