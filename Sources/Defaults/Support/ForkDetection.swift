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
package enum ForkDetection {
	/// 0 in a process that was not forked; a forked child's is its parent's plus one.
	package static var generation: UInt64 {
		forks.load(ordering: .relaxed)
	}

	/// Installs the fork handler (once); state stamped before it was installed is never mistaken for inherited.
	static func start() {
		_ = handlerInstalled
	}

	private static let forks = Atomic<UInt64>(0)

	private static let handlerInstalled: Void = {
		#if canImport(Glibc)
		// The child handler runs in the child, with only the forking thread: an atomic increment and `close` are safe there.
		pthread_atfork(nil, nil) {
			ForkDetection.forks.add(1, ordering: .relaxed)
			ParentOnlyDescriptors.closeAll()
		}
		#endif
	}()

	/**
	Closes `descriptor` in every child forked from now on, until
	``keepInForkedChildren(_:)``: a child must not keep alive what only the
	parent acts on (a `flock` held for the parent's role, which the child's
	copy would hold after the parent's death, the child never acting on it).
	Returns `false` when too many descriptors are registered (the child then keeps it).
	*/
	@discardableResult
	package static func closeInForkedChildren(_ descriptor: Int32) -> Bool {
		start()
		return ParentOnlyDescriptors.register(descriptor)
	}

	/// Stops closing `descriptor` in forked children (call it before closing `descriptor` yourself).
	package static func keepInForkedChildren(_ descriptor: Int32) {
		ParentOnlyDescriptors.unregister(descriptor)
	}
}

/// The descriptors a forked child closes, in fixed slots the fork handler reads without a lock (it must not wait
/// for one another thread held at the fork); registrations take the slots' lock.
private enum ParentOnlyDescriptors {
	static let capacity = 64
	/// −1 marks a free slot. Aligned 32-bit stores are whole on every platform Swift runs on, so the child reads each slot whole.
	nonisolated(unsafe) static let slots: UnsafeMutablePointer<Int32> = {
		let slots = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
		slots.initialize(repeating: -1, count: capacity)
		return slots
	}()

	static let registration = Mutex(())

	static func register(_ descriptor: Int32) -> Bool {
		registration.withLock { _ in
			guard let free = (0..<capacity).first(where: { slots[$0] == -1 }) else {
				return false
			}

			slots[free] = descriptor
			return true
		}
	}

	static func unregister(_ descriptor: Int32) {
		registration.withLock { _ in
			for index in 0..<capacity where slots[index] == descriptor {
				slots[index] = -1
			}
		}
	}

	static func closeAll() {
		#if canImport(Glibc)
		for index in 0..<capacity where slots[index] >= 0 {
			close(slots[index])
			slots[index] = -1
		}
		#endif
	}
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
