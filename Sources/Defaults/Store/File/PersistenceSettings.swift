import Foundation
import Synchronization

/// Process-wide persistence settings.
package enum PersistenceSettings {
	static var writeMode: Defaults.WriteMode {
		get { Defaults.WriteMode(word: DefaultsSystem.writeMode.load(ordering: .relaxed)) }
		set { DefaultsSystem.writeMode.store(newValue.word, ordering: .relaxed) }
	}

	/// How long a flush keeps re-reading a file that does not parse while it is still changing (another program writing it in place) before it counts as unreadable.
	static let settleLimit: Duration = .milliseconds(250)

	/// The wait between two such readings.
	static let settleStep: Duration = .milliseconds(10)

	/// How long such a file must stay unchanged to count as finished (broken for good, or empty).
	static let settleQuiet: Duration = .milliseconds(100)

	/// After an unreadable file was set aside, the same bytes failing again within this time are not set aside again.
	static let setAsideBurst: Duration = .seconds(5)

	/// How long `Defaults.migrate` waits for another process's migrations of the same suite (they may run a while) before it gives up.
	static let migrationLockTimeout: Duration = .seconds(60)

	/// How long the flush at exit, or on a termination signal, may take in all: the process ends even if another holds the lock.
	static let exitFlushLimit: Duration = .seconds(2)

	/// Rounds of the exit flush: observers that write while it delivers other processes' changes get their writes flushed too.
	static let exitFlushRounds = 8
}

extension Defaults {
	/**
	When the library writes changes to disk (Linux; Apple platforms persist on their own).

	What a write survives once its setter returned:

	| The process ends by | `.coalesced` (default) | `.writeThrough` |
	|---|---|---|
	| `return` from `main`, `exit()` | kept (flushed at exit) | kept |
	| SIGTERM, SIGINT, SIGHUP with the default disposition | kept (flushed, then the process dies by the signal) | kept |
	| the same signals handled by the application | kept if its handler ends in `exit()` | kept |
	| SIGKILL, `_exit`, `abort`, a crash | lost if still in the window | kept |
	| power loss | lost if still in the window | kept |

	In every case the file on disk is the old or the new version, never a torn
	one, and a ``Defaults/flush(suite:)`` that returned covers everything
	written before it. Flushes at exit or on a signal take at most about two
	seconds; what they cannot write (another process holds the lock) is named
	in a diagnostic.

	```swift
	Defaults.writeMode = .writeThrough                 // every write is durable before it returns
	Defaults.writeMode = .coalesced(milliseconds: 50)  // the default
	```
	*/
	public enum WriteMode: Sendable, Hashable {
		/**
		Changes are gathered and written together, on disk within this long of
		the first one: the write starts the window less the time the suite's
		last write took after it.

		A suite whose file takes longer than the window to write waits that long
		between writes instead, so persisting costs at most half a core, and a
		change is on disk within twice that time. Measured on a 2-core machine,
		a one-key write of the file takes 3 ms at 10,000 keys and 21 ms at
		50,000 in a release build, 25 ms at 10,000 keys in a debug build, and
		56 ms for a 20 MB suite.
		*/
		case coalesced(milliseconds: Int)

		/// Each write is on disk before the subscript setter returns. Slower; for tools and tests.
		case writeThrough
	}

	/**
	How the library persists writes. Defaults to `.coalesced(milliseconds: 50)`.

	Whatever the mode, pending changes are also written at normal process exit
	(`return` from `main`, `exit()`), when SIGTERM, SIGINT or SIGHUP ends the
	process, and by ``flush(suite:)``. ``WriteMode`` lists what survives what.

	```swift
	Defaults.writeMode = .writeThrough
	```
	*/
	public static var writeMode: WriteMode {
		get { PersistenceSettings.writeMode }
		set { PersistenceSettings.writeMode = newValue }
	}
}

extension Defaults.WriteMode {
	/// The mode as one word: `writeThrough` is `Int.min`, a coalesced window its milliseconds (a window of `Int.min` milliseconds, which means no wait as any negative one does, is kept as `Int.min + 1`).
	var word: Int {
		switch self {
		case .writeThrough:
			Int.min
		case .coalesced(let milliseconds):
			max(milliseconds, Int.min + 1)
		}
	}

	init(word: Int) {
		self = word == Int.min ? .writeThrough : .coalesced(milliseconds: word)
	}
}
