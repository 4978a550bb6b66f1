import Foundation

/**
The locks that guard what keys last read (``Defaults/Key``'s last read: the
value, the suite and the suite's version it was read at).

A read that finds its suite still at the version of the key's last read
returns that value without asking the suite: no suite lock, no lookup, no
decoding. A version is unique across the process and changes with every
change to any layer of the suite (a write, another process's change, a
launch argument, a forced or registered value, the global domain), so the
first read after any change asks the suite again, and a read after a write on
the same thread sees it. Only values no caller can change behind the next
read are remembered (``PlistCodec/decodesToValues``), and only a value that
decoded, or a static default (a dynamic default is called at every read).

A plain value of at most 8 bytes (`Int`, `Bool`, `Double`, a small enum) is
kept in an atomic word beside the version, as a sequence lock: a read that
hits loads the version, the word and the version again, and takes no lock at
all. Remembering one claims the version with a compare-and-exchange (to
``claimed``, which no read matches) before it writes the word, so two
rememberings never interleave: the one that loses the race leaves the
remembering to the other. Other values are copied in and out under the key's
mutex.

Keys share a few locks by their address rather than each holding one: a lock
per declared key would cost allocations per key, paid by every process at
start-up for keys it may never read. They are POSIX mutexes, which the thread
sanitizer understands, taken for a handful of instructions.
*/
enum LastReadLocks {
	/// The version of a last read being remembered: no suite's version ever gets this high.
	static let claimed = UInt64.max

	private static let count = 64
	nonisolated(unsafe) private static let mutexes: UnsafeMutablePointer<pthread_mutex_t> = {
		let mutexes = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: count)
		for index in 0..<count {
			pthread_mutex_init(mutexes + index, nil)
		}

		return mutexes
	}()

	/// The mutex that guards `key`'s last read.
	@inline(__always)
	static func mutex(for key: AnyObject) -> UnsafeMutablePointer<pthread_mutex_t> {
		// The low bits of an object's address are alignment: the stripe comes from the ones above.
		mutexes + (Int(truncatingIfNeeded: UInt(bitPattern: ObjectIdentifier(key)) >> 5) & (count - 1))
	}
}
