import Foundation

extension Duration {
	/// The duration in seconds, for `Date` arithmetic.
	var timeInterval: TimeInterval {
		self / .seconds(1)
	}

	/// The duration to the nanosecond, for dispatch's timers.
	var dispatchInterval: DispatchTimeInterval {
		let (seconds, attoseconds) = components
		return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
	}
}
