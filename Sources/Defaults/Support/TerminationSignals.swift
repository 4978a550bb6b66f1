import Foundation
#if canImport(Glibc)
import Glibc
#endif

/**
The signals that end a process by default and that the library flushes on
(SIGTERM, SIGINT, SIGHUP; see ``TerminationSignalFlush``), and how a thread
holds them off.

The library's own threads, and its code while it holds a suite's locks, run
with them deferred: the thread a signal parks must never be one that holds a
lock the signal's flush needs.

<!-- check: internal -->
```swift
TerminationSignals.deferred {
	thread.start()   // the new thread inherits the mask: it never takes these signals
}
```
*/
enum TerminationSignals {
	#if canImport(Glibc)
	static let numbers: [Int32] = [SIGTERM, SIGINT, SIGHUP]

	/// The three as a signal set, for masks.
	static let set: sigset_t = {
		var set = sigset_t()
		sigemptyset(&set)
		for signal in numbers {
			sigaddset(&set, signal)
		}
		return set
	}()

	/// Runs `body` with the three signals blocked in this thread: one that arrives meanwhile goes to another thread, or waits until `body` returns.
	static func deferred<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
		var previous = sigset_t()
		var blocked = set
		pthread_sigmask(SIG_BLOCK, &blocked, &previous)
		defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
		return try body()
	}
	#else
	/// Apple platforms persist every write themselves: nothing flushes on a signal, nothing is deferred.
	static func deferred<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
		try body()
	}
	#endif
}
