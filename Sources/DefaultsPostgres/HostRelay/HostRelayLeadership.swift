#if Postgres
import Defaults
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/**
Which process of a relay connects: the one holding an exclusive `flock` on
the relay's `leader.lock`.

The kernel releases the lock when its holder ends, however it ends (a crash,
`kill -9`), so another process takes over at its next attempt. A process
that does not lead keeps no descriptor of the lock file between attempts.
The leader's descriptor is closed in every forked child (see
`ForkDetection`), and a child never believes it leads: a worker forked from
the leader cannot keep the host's connection hostage after the leader's
death without ever acting on it.

Each leader writes a new term into the lock file; the relay's copy of the
namespace names the term it was written in, so a copy left by an earlier
leader is never mistaken for the current one.

A leader that stops making progress keeps its lock (a stopped process, a
hung one), so the lock alone cannot tell that it is gone: after the term the
leader writes a beat, which it advances every quarter second while it makes
progress (``beat(term:)``). A process that finds the lock held but the stamp
unchanged for ``HostRelayLiveness/stallBound`` takes the lead over: it locks
a new lock file, writes its term into it and renames it over `leader.lock`.
The stopped leader's lock now guards an unlinked file; its writes to the
relay's files are fenced by the term the path names, and at its first beat
after it resumes it sees that `leader.lock` is no longer its file and stops
leading. Two processes that take over at once both lead until the next beat,
when the one whose file was renamed over steps down: publishing twice is
harmless (the table keeps the newest stamp).

Layout of `leader.lock`: the term (32 hexadecimal digits), then the beat (16).
*/
final class HostRelayLeadership: Sendable {
	let url: URL
	private struct State {
		/// The lock file's descriptor, the term and its last beat while leading, with the fork generation they belong to.
		var lead: (descriptor: Int32, term: String, generation: UInt64, beat: UInt64)?
		/// What this process saw of another's lead.
		var liveness: HostRelayLiveness
		/// Resigned for good (the store is gone): a late attempt of its election, already under way, takes no lead.
		var isRetired = false
	}

	private let state: Locked<State>

	/// A term: 32 hexadecimal digits, so every term has the same length and one `pwrite` replaces the previous one whole.
	static let termLength = 32
	/// A beat: 16 hexadecimal digits after the term.
	static let beatLength = 16

	/// `stallBound`: how long another leader's stamp may stay the same before this process takes the lead over.
	init(lockFile url: URL, stallBound: Duration = HostRelayLiveness.stallBound) {
		self.url = url
		state = Locked(State(liveness: HostRelayLiveness(bound: stallBound)))
	}

	deinit {
		resign()
	}

	/// The current term when this process leads.
	var term: String? {
		state.withLock { state in
			state.lead.flatMap { $0.generation == ForkDetection.generation ? $0.term : nil }
		}
	}

	/// Tries once, without waiting, to become the leader (or to take the lead over from a leader that stalled); returns the term when this process leads.
	func tryToLead() -> String? {
		let (term, isRegistered) = attemptToLead()
		if !isRegistered {
			DiagnosticReporter.report(.syncFailed, key: nil, "this process leads the processes sharing a PostgreSQL connection through \(url.deletingLastPathComponent().path), but holds too many such leads to close them all in forked children: a child forked now keeps the lead alive after this process ends")
		}

		return term
	}

	/**
	While leading in `term`: checks that `leader.lock` is still this process's file with that term, and advances the beat.
	Returns `false` when this process no longer leads in `term`; when another process took the lead over (this one was
	stopped or stalled), it stops leading.
	*/
	func beat(term: String) -> Bool {
		#if canImport(Glibc)
		state.withLock { state in
			// A later lead of this process (it took the lead back) is not the one asking: that one's work is over.
			guard let lead = state.lead, lead.generation == ForkDetection.generation, lead.term == term else {
				return false
			}

			guard Self.isCurrent(lead.descriptor, term: lead.term, at: url) else {
				Self.release(lead.descriptor)
				state.lead = nil
				state.liveness.reset()
				return false
			}

			let beat = lead.beat &+ 1
			state.lead?.beat = beat
			_ = Self.write(Self.hex(beat, digits: Self.beatLength), to: lead.descriptor, at: Self.termLength)
			return true
		}
		#else
		return false
		#endif
	}

	/// The stamp `leader.lock` holds, or `nil` when there is none (or it is not a file the relay trusts).
	static func stamp(at url: URL) -> HostRelayLiveness.Stamp? {
		#if canImport(Glibc)
		guard let descriptor = (try? RelayFile.open(url, O_RDONLY)) ?? nil else {
			return nil
		}

		defer { close(descriptor) }
		return stamp(of: descriptor)
		#else
		return nil
		#endif
	}

	/// The term when this process leads, and whether a new lead's descriptor is closed in forked children.
	private func attemptToLead() -> (term: String?, isRegistered: Bool) {
		#if canImport(Glibc)
		var setAside: String?
		defer {
			// Reported once the lock is released: a diagnostic handler is the user's code.
			if let setAside {
				DiagnosticReporter.report(.syncFailed, key: nil, setAside)
			}
		}

		return state.withLock { state -> (String?, Bool) in
			if let current = state.lead, current.generation == ForkDetection.generation {
				return (current.term, true)
			}

			// A forked child's inherited lead: its descriptor was closed at the fork.
			state.lead = nil
			guard !state.isRetired else {
				return (nil, true)
			}

			// A lock file that is not one the relay trusts (a link, a FIFO, another user's) is set aside, and made anew.
			let descriptor: Int32
			do throws(RelayFile.Failure) {
				guard let opened = try RelayFile.open(url, O_RDWR, creating: 0o600) else {
					// The folder is gone: the next election makes it again.
					return (nil, true)
				}

				descriptor = opened
			} catch {
				if error.isDamaged {
					setAside = RelayFile.setAside(error)
				}

				return (nil, true)
			}

			// Registered before the lock is taken: a fork in between cannot leave a child sharing the locked descriptor.
			let isRegistered = ForkDetection.closeInForkedChildren(descriptor)
			guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
				// Held: by a leader that makes progress, or by one that stopped, whose lead is taken over.
				let stamp = Self.stamp(of: descriptor)
				Self.release(descriptor)
				guard let stamp, state.liveness.observe(stamp, at: .now) == .stalled else {
					return (nil, true)
				}

				return takeOver(from: stamp, state: &state)
			}

			let term = Self.newTerm()
			// Leading with the previous term still in the file would make the previous leader's copy trusted: give the lead back.
			guard Self.write(term + Self.hex(0, digits: Self.beatLength), to: descriptor, at: 0) else {
				Self.release(descriptor)
				return (nil, true)
			}

			return lead(descriptor, term: term, isRegistered: isRegistered, state: &state)
		}
		#else
		return (nil, true)
		#endif
	}

	#if canImport(Glibc)
	/// Takes the lead over from a leader whose `stalled` stamp stopped moving: a new lock file, locked and stamped, renamed over `leader.lock`.
	private func takeOver(from stalled: HostRelayLiveness.Stamp, state: inout State) -> (term: String?, isRegistered: Bool) {
		let temporary = TemporaryFileName.make(for: url)
		let descriptor = open(temporary.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
		guard descriptor >= 0 else {
			return (nil, true)
		}

		let isRegistered = ForkDetection.closeInForkedChildren(descriptor)
		let term = Self.newTerm()
		// Only over the stalled leader: when another process took over meanwhile, its stamp is in the file now.
		guard flock(descriptor, LOCK_EX | LOCK_NB) == 0,
		      Self.write(term + Self.hex(0, digits: Self.beatLength), to: descriptor, at: 0),
		      Self.stamp(at: url) == stalled,
		      rename(temporary.path, url.path) == 0 else {
			unlink(temporary.path)
			Self.release(descriptor)
			return (nil, true)
		}

		guard Self.isCurrent(descriptor, term: term, at: url) else {
			Self.release(descriptor)
			return (nil, true)
		}

		return lead(descriptor, term: term, isRegistered: isRegistered, state: &state)
	}

	/// This process leads in `term`, holding `descriptor` locked.
	private func lead(_ descriptor: Int32, term: String, isRegistered: Bool, state: inout State) -> (term: String?, isRegistered: Bool) {
		state.lead = (descriptor, term, ForkDetection.generation, 0)
		state.liveness.reset()
		return (term, isRegistered)
	}

	/// Closes a descriptor of the lock file that does not lead (or no longer does), releasing its lock if it holds one.
	private static func release(_ descriptor: Int32) {
		ForkDetection.keepInForkedChildren(descriptor)
		close(descriptor)
	}

	/// Whether `url` still names the file open as `descriptor`, and it holds `term`.
	private static func isCurrent(_ descriptor: Int32, term: String, at url: URL) -> Bool {
		var open = stat()
		var named = stat()
		guard fstat(descriptor, &open) == 0, lstat(url.path, &named) == 0, open.st_dev == named.st_dev, open.st_ino == named.st_ino else {
			return false
		}

		return stamp(of: descriptor)?.term == term
	}

	private static func stamp(of descriptor: Int32) -> HostRelayLiveness.Stamp? {
		var status = stat()
		guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
			return nil
		}

		var bytes = [UInt8](repeating: 0, count: termLength + beatLength)
		let count = pread(descriptor, &bytes, bytes.count, 0)
		guard count >= termLength else {
			return nil
		}

		let term = String(decoding: bytes[0..<termLength], as: UTF8.self)
		let beat = count == bytes.count ? UInt64(String(decoding: bytes[termLength...], as: UTF8.self), radix: 16) : nil
		return HostRelayLiveness.Stamp(term: term, beat: beat)
	}

	private static func write(_ text: String, to descriptor: Int32, at offset: Int) -> Bool {
		let bytes = Array(text.utf8)
		return pwrite(descriptor, bytes, bytes.count, off_t(offset)) == bytes.count
	}
	#endif

	private static func newTerm() -> String {
		(0..<4).map { _ in hex(UInt64(UInt32.random(in: .min ... .max)), digits: 8) }.joined()
	}

	private static func hex(_ value: UInt64, digits: Int) -> String {
		let hex = String(value, radix: 16)
		return String(repeating: "0", count: max(0, digits - hex.count)) + hex
	}

	/// Gives up the lead for good (the store is gone): another process takes over at its next attempt.
	func resign() {
		#if canImport(Glibc)
		state.withLock { state in
			// In a forked child the descriptor was closed at the fork; its number may name another file now.
			if let current = state.lead, current.generation == ForkDetection.generation {
				Self.release(current.descriptor)
			}

			state.lead = nil
			state.isRetired = true
		}
		#endif
	}
}
#endif
