import Foundation

/// A value a key decoded, kept by the suite with the version of the stored object it came from.
final class DecodedValue<Value>: @unchecked Sendable {
	// Immutable once made, and only handed out by the suite's lock.
	let value: Value

	init(_ value: Value) {
		self.value = value
	}
}
