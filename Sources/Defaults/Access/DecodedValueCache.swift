import Foundation

/**
The last value a key decoded, with the stored object it came from.

Decoding is a pure function of the stored object, so a read whose stored
object equals the remembered one can return the remembered value without
decoding. Every read still asks the suite for its current object, which is
what keeps the cache correct whoever changed the value: this process through
the library or raw `UserDefaults`, another process, `reset` or `removeAll`.
What it saves is the decoding (`JSONDecoder` for a `Codable` value, unarchiving,
bridges), the dominant cost of reading such values.

One entry per key, held by the key: memory grows only with the keys actually
read, and goes away with the key.
*/
final class DecodedValueCache<Value>: @unchecked Sendable {
	/// Immutable once made, so a reader holds it without the lock.
	private final class Entry {
		let stored: PropertyListValue
		/// The stored object when it is a string (every JSON-encoded value), compared without building a `PropertyListValue`.
		let storedString: String?
		let value: Value

		init(stored: PropertyListValue, value: Value) {
			self.stored = stored
			if case .string(let string) = stored {
				storedString = string
			} else {
				storedString = nil
			}

			self.value = value
		}

		func matches(_ object: Any) -> Bool {
			if let storedString {
				return (object as? String) == storedString
			}

			return PropertyListValue(object) == stored
		}
	}

	// The lock is held only to copy one reference in or out. It is spelled out rather than
	// going through `Locked.withLock`, which measured 150 ns more per read: a tenth of the read.
	private let lock = NSLock()
	private var entry: Entry?

	private var remembered: Entry? {
		lock.lock()
		defer { lock.unlock() }
		return entry
	}

	/// The remembered value if `object` is what it was decoded from, else `decode`'s result (remembered on success).
	func value(
		for object: Any,
		decode: (Any) throws(SerializationError) -> Value
	) throws(SerializationError) -> Value {
		if let remembered, remembered.matches(object) {
			return remembered.value
		}

		let value = try decode(object)
		if let stored = PropertyListValue(object) {
			let newEntry = Entry(stored: stored, value: value)
			lock.lock()
			entry = newEntry
			lock.unlock()
		}

		return value
	}
}
