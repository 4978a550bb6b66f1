import Foundation

extension Defaults {
	/**
	When an observer is told about a change.

	```swift
	let observation = Defaults.observe(.quality, options: [.initial, .prior]) { change in
		print(change.isPrior ? "about to change from \(change.oldValue)" : "now \(change.newValue)")
	}
	```
	*/
	public enum ObservationOption: Sendable, Hashable {
		/// Deliver the current value once, before `observe` returns.
		case initial

		/// Also deliver a callback before each change is made, with `isPrior == true`.
		case prior
	}

	/// A set of ``ObservationOption``s. The default for `observe` is `[.initial]`.
	public typealias ObservationOptions = Set<ObservationOption>

	/**
	A typed change to a key.

	`oldValue` and `newValue` are the key's default when nothing is (or was)
	stored, or when the stored value does not decode.

	```swift
	let observation = Defaults.observe(.quality) { change in
		print("quality", change.oldValue, "→", change.newValue)
	}
	```
	*/
	public struct KeyChange<Value: Serializable> {
		/// Always `.setting`; kept for source compatibility with key-value observing.
		public let kind: NSKeyValueChange

		/// Always `nil`; kept for source compatibility with key-value observing.
		public let indexes: IndexSet?

		/// `true` for the callback delivered before the change (``ObservationOption/prior``).
		public let isPrior: Bool

		/// The value after the change (for a prior callback: the value about to be written).
		public let newValue: Value

		/// The value before the change.
		public let oldValue: Value

		init(isPrior: Bool, newValue: Value, oldValue: Value) {
			self.kind = .setting
			self.indexes = nil
			self.isPrior = isPrior
			self.newValue = newValue
			self.oldValue = oldValue
		}

		init(_ change: RawChange, key: Key<Value>) {
			self.init(
				isPrior: change.isPrior,
				newValue: key.value(fromStored: change.newObject, in: key.suiteObject),
				oldValue: key.value(fromStored: change.oldObject, in: key.suiteObject)
			)
		}
	}
}

extension Defaults.KeyChange: Equatable where Value: Equatable {}
extension Defaults.KeyChange: Sendable where Value: Sendable {}
