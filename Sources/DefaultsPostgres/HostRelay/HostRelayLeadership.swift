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
`kill -9`), so another process takes over at its next attempt. A forked child
never keeps the lock alive: the descriptor is closed in every child (see
`ForkDetection`), so a worker forked from the leader cannot hold the host's
connection hostage after the leader's death without ever acting on it.

Each leader writes a new term into the lock file; the relay's copy of the
namespace names the term it was written in, so a copy left by an earlier
leader (days old, after a restart) is never mistaken for the current one.
*/
final class HostRelayLeadership: Sendable {
	let url: URL
	/// The lock file's descriptor (−1 before the first attempt or after `resign`), and the term when leading.
	private let state = Locked<(descriptor: Int32, term: String?)>((-1, nil))

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
		state.withLock { $0.term }
	}

	/// Tries once, without waiting, to become the leader; returns the new term when it did.
	func tryToLead() -> String? {
		#if canImport(Glibc)
		state.withLock { state -> String? in
			if let term = state.term {
				return term
			}

			if state.descriptor < 0 {
				state.descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
				guard state.descriptor >= 0 else {
					return nil
				}

				ForkDetection.closeInForkedChildren(state.descriptor)
			}

			guard flock(state.descriptor, LOCK_EX | LOCK_NB) == 0 else {
				return nil
			}

			let term = (0..<4).map { _ in
				let hex = String(UInt32.random(in: .min ... .max), radix: 16)
				return String(repeating: "0", count: 8 - hex.count) + hex
			}.joined()
			// A term that could not be written is still this process's: readers then keep distrusting the old copy, and wait.
			_ = term.utf8CString.withUnsafeBufferPointer { bytes in
				pwrite(state.descriptor, bytes.baseAddress, Self.termLength, 0)
			}
			state.term = term
			return term
		}
		#else
		return nil
		#endif
	}

	/// The term the lock file names: the current leader's, or the last one's when none leads now.
	func currentTerm() -> String? {
		guard let data = try? Data(contentsOf: url), data.count >= Self.termLength else {
			return nil
		}

		return String(decoding: data.prefix(Self.termLength), as: UTF8.self)
	}

	/// Gives up the lead (and the lock file): another process takes over at its next attempt.
	func resign() {
		#if canImport(Glibc)
		state.withLock { state in
			if state.descriptor >= 0 {
				ForkDetection.keepInForkedChildren(state.descriptor)
				close(state.descriptor)
			}

			state = (-1, nil)
		}
		#endif
	}
}
#endif
