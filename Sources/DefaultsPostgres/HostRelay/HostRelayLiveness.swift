#if Postgres
import Foundation

/**
Whether a relay's leader still makes progress, as a process that does not
lead judges it: a pure value, fed what `leader.lock` holds each time the
process looks, and the time it looked.

The leader writes a stamp into `leader.lock`, its term and a beat it advances
every ``beatInterval`` while it makes progress (``beats(roundStartedAt:now:limit:)``).
A process that sees the same stamp for ``stallBound`` of its own time takes
the lead over (``HostRelayLeadership``): a leader that is stopped (SIGSTOP, a
debugger, a frozen cgroup), hung or starved holds its `flock`, but no longer
the host's sync. Only the observer's clock is used, so no two processes need
to agree on the time.
*/
struct HostRelayLiveness: Sendable {
	/// How often a leader that makes progress writes a new beat.
	static let beatInterval = Duration.milliseconds(250)
	/// How long a stamp may stay the same before its leader is replaced: eight beats.
	static let stallBound = Duration.seconds(2)

	/// What `leader.lock` holds: the term, and the beat (`nil` when the file holds none, as a leader that just started).
	struct Stamp: Equatable, Sendable {
		var term: String
		var beat: UInt64?
	}

	enum Verdict: Equatable, Sendable {
		/// The stamp moved within the bound (or was first seen now): wait for the leader.
		case alive
		/// The stamp has not moved for the bound: take the lead over.
		case stalled
	}

	let bound: Duration
	private var last: (stamp: Stamp, since: ContinuousClock.Instant)?

	init(bound: Duration = Self.stallBound) {
		self.bound = bound
	}

	/// What `stamp`, seen at `now`, tells of its leader.
	mutating func observe(_ stamp: Stamp, at now: ContinuousClock.Instant) -> Verdict {
		if let last, last.stamp == stamp {
			return now - last.since >= bound ? .stalled : .alive
		}

		last = (stamp, now)
		return .alive
	}

	/// Forgets what was seen (this process leads now, or the lead was taken over).
	mutating func reset() {
		last = nil
	}

	/**
	Whether a leader beats now: not while one round of its work (a publication, a read) has run for longer than
	`limit` (it is hung, the others take over); a leader between rounds (`roundStartedAt` `nil`) always beats.
	*/
	static func beats(roundStartedAt start: ContinuousClock.Instant?, now: ContinuousClock.Instant, limit: Duration) -> Bool {
		start.map { now - $0 <= limit } ?? true
	}
}
#endif
