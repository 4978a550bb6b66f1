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
*/
final class HostRelayLeadership: Sendable {
	let url: URL
	/// The lock file's descriptor and the term while leading, with the fork generation they belong to.
	private let state = Locked<(descriptor: Int32, term: String, generation: UInt64)?>(nil)

	/// A term: 32 hexadecimal digits, so every term has the same length and one `pwrite` replaces the previous one whole.
	static let termLength = 32

	init(lockFile url: URL) {
		self.url = url
	}

	deinit {
		resign()
	}

	/// The current term when this process leads.
	var term: String? {
		state.withLock { state in
			state.flatMap { $0.generation == ForkDetection.generation ? $0.term : nil }
		}
	}

	/// Tries once, without waiting, to become the leader; returns the term when this process leads.
	func tryToLead() -> String? {
		let (term, isRegistered) = attemptToLead()
		if !isRegistered {
			DiagnosticReporter.report(.syncFailed, key: nil, "this process leads the processes sharing a PostgreSQL connection through \(url.deletingLastPathComponent().path), but holds too many such leads to close them all in forked children: a child forked now keeps the lead alive after this process ends")
		}

		return term
	}

	/// The term when this process leads, and whether a new lead's descriptor is closed in forked children.
	private func attemptToLead() -> (term: String?, isRegistered: Bool) {
		#if canImport(Glibc)
		state.withLock { state -> (String?, Bool) in
			if let current = state, current.generation == ForkDetection.generation {
				return (current.term, true)
			}

			// A forked child's inherited lead: its descriptor was closed at the fork.
			state = nil
			let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
			guard descriptor >= 0 else {
				return (nil, true)
			}

			// Registered before the lock is taken: a fork in between cannot leave a child sharing the locked descriptor.
			let isRegistered = ForkDetection.closeInForkedChildren(descriptor)
			var status = stat()
			guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
				ForkDetection.keepInForkedChildren(descriptor)
				close(descriptor)
				return (nil, true)
			}

			let term = (0..<4).map { _ in
				let hex = String(UInt32.random(in: .min ... .max), radix: 16)
				return String(repeating: "0", count: 8 - hex.count) + hex
			}.joined()
			// Leading with the previous term still in the file would make the previous leader's copy trusted: give the lead back.
			let written = term.utf8CString.withUnsafeBufferPointer { bytes in
				pwrite(descriptor, bytes.baseAddress, Self.termLength, 0)
			}
			guard written == Self.termLength else {
				ForkDetection.keepInForkedChildren(descriptor)
				close(descriptor)
				return (nil, true)
			}
			state = (descriptor, term, ForkDetection.generation)
			return (term, isRegistered)
		}
		#else
		return (nil, true)
		#endif
	}

	/// Gives up the lead: another process takes over at its next attempt.
	func resign() {
		#if canImport(Glibc)
		state.withLock { state in
			// In a forked child the descriptor was closed at the fork; its number may name another file now.
			if let current = state, current.generation == ForkDetection.generation {
				ForkDetection.keepInForkedChildren(current.descriptor)
				close(current.descriptor)
			}

			state = nil
		}
		#endif
	}
}
#endif
