#if Postgres
/// Delays between reconnection attempts: doubling from `initial` up to `maximum`, with jitter so a fleet that lost
/// its server at the same moment does not come back at the same moment.
struct Backoff: Sendable {
	let initial: Duration
	let maximum: Duration
	private var next: Duration

	init(initial: Duration, maximum: Duration) {
		self.initial = initial
		self.maximum = maximum
		next = initial
	}

	mutating func delay() -> Duration {
		let current = next
		next = min(next * 2, maximum)
		return current * Double.random(in: 0.8...1.2)
	}

	mutating func reset() {
		next = initial
	}
}
#endif
