import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/**
Tells what a process set itself from what it inherited through `fork()`.

A child forked while its parent had changes pending would otherwise write
them at its exit, over newer values the parent flushed meanwhile: they are
the parent's to write. A fork handler counts the forks; state stamped with an
older count was inherited.
*/
enum ForkDetection {
	/// 0 in a process that was not forked; a forked child's is its parent's plus one.
	static var generation: UInt64 {
		forks.load(ordering: .relaxed)
	}

	/// Installs the fork handler (once); state stamped before it was installed is never mistaken for inherited.
	static func start() {
		_ = handlerInstalled
	}

	private static let forks = Atomic<UInt64>(0)

	private static let handlerInstalled: Void = {
		#if canImport(Glibc)
		// The child handler runs in the child, with only the forking thread: an atomic increment is safe there.
		pthread_atfork(nil, nil) {
			ForkDetection.forks.add(1, ordering: .relaxed)
		}
		#endif
	}()
}

/**
A value that belongs to the process that set it: in a forked child it reads
as its initial value until the child sets it.

Mark a field of inherited-unsafe state with it (the changes a process has not
written yet), and a child never acts on its parent's.

<!-- check: internal -->
```swift
private struct State {
	@ForkLocal var pending: [String: Pending] = [:]
}
```
*/
@propertyWrapper
struct ForkLocal<Value> {
	private var value: Value
	private let initial: Value
	private var generation: UInt64

	init(wrappedValue: Value) {
		ForkDetection.start()
		value = wrappedValue
		initial = wrappedValue
		generation = ForkDetection.generation
	}

	var wrappedValue: Value {
		get {
			generation == ForkDetection.generation ? value : initial
		}
		// Changes in place: a dictionary of pending changes is not copied on every write.
		_modify {
			let current = ForkDetection.generation
			if generation != current {
				value = initial
				generation = current
			}
			yield &value
		}
	}
}

/**
A lock a forked child never inherits held.

A child forked while another thread of its parent held a lock gets it held
forever (the thread that would release it does not exist in the child): a
suite's flushes would then wait for it at every write, retry and exit, and
the child would persist nothing. Each process (fork generation) gets a lock
of its own on first use; the parent's, held or not, stays behind. The lock
that hands them out is held only for that lookup, so a fork almost never
finds it held.

<!-- check: internal -->
```swift
let lock = ForkLocalLock()
if lock.lock(before: Date() + 1) {
	defer { lock.unlock() }
}
```
*/
final class ForkLocalLock: Sendable {
	private let current = Locked<(generation: UInt64, lock: NSLock)>((ForkDetection.generation, NSLock()))

	/// This process's lock: a forked child's first use makes a new one.
	private var lockOfThisProcess: NSLock {
		current.withLock { current in
			let generation = ForkDetection.generation
			if current.generation != generation {
				current = (generation, NSLock())
			}
			return current.lock
		}
	}

	func lock() {
		lockOfThisProcess.lock()
	}

	func lock(before limit: Date) -> Bool {
		lockOfThisProcess.lock(before: limit)
	}

	/// Releases the lock this thread took: in the same process, since a forked child has none of the threads that held its parent's.
	func unlock() {
		lockOfThisProcess.unlock()
	}
}
