import Foundation

/**
The floor: a dictionary behind a lock, the least a thread-safe store can do.
A read is a lookup under the lock; a write is a set under the lock plus a
dirty flag (what a store that writes its file later must remember), with no
file, no observers and no bookkeeping.
*/
final class LockedDictionary: @unchecked Sendable {
	private let lock = NSLock()
	private var values: [String: Any]
	private var isDirty = false

	init(_ values: [String: Any]) {
		self.values = values
	}

	/// `keyCount` Ints named as ``makeSuite(_:keyCount:)`` names them (`filler0`, `filler1`, …).
	convenience init(keyCount: Int) {
		self.init(Dictionary(uniqueKeysWithValues: (0..<keyCount).map { ("filler\($0)", $0 as Any) }))
	}

	subscript(name: String) -> Any? {
		lock.lock()
		defer { lock.unlock() }
		return values[name]
	}

	func set(_ value: Any, for name: String) {
		lock.lock()
		defer { lock.unlock() }
		values[name] = value
		isDirty = true
	}

	/// Whether a write happened (read once at the end, so the flag is not optimized away).
	var wasWritten: Bool {
		lock.lock()
		defer { lock.unlock() }
		return isDirty
	}
}
