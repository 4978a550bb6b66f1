#if os(Linux)
import Foundation

/**
One bounded call to the Secret Service: a `GCancellable` that a timer
cancels when the deadline passes.

libsecret's and GDBus's `_sync` calls wait for the daemon's answer up to
D-Bus's default of 25 s; a stuck daemon would hang the caller that long.
Every step of one client call takes this call's cancellable, and a dispatch
timer cancels it at the deadline, so the step returns `G_IO_ERROR_CANCELLED`
at once and the client reports ``SecretServiceError/timedOut(_:)``. The
D-Bus connection stays usable: the late answer is dropped when it comes, and
the next call works as soon as the daemon answers again.

The cancellable is released when both the call and its timer are done with
it (the timer's closure keeps this object alive): a timer that fires after the
call ended cancels an object nobody uses any more, never a freed one.
*/
// `@unchecked`: every stored property is immutable except `state`, which is behind a lock, and the one raw pointer is a
// GCancellable, which GLib makes safe to cancel from any thread. No user code runs in or under it.
final class SecretServiceCall: @unchecked Sendable {
	private enum Phase {
		case running
		case finished
		case cancelled
	}

	private struct State {
		var phase = Phase.running
		/// The pending timer; set to `nil` when it fired or the call finished, which ends the timer's hold on the call.
		var expiry: DispatchWorkItem?
	}

	let library: SecretServiceLibrary
	let timeout: Duration
	/// The `GCancellable` every step of the call passes.
	let cancellable: SecretServiceLibrary.Pointer
	private let start = ContinuousClock.now
	private let state = Locked(State())

	/// Whether the deadline passed and the call was cancelled.
	var didTimeOut: Bool {
		state.withLock { $0.phase == .cancelled }
	}

	/// What is left of the timeout, in the milliseconds GDBus's own timeout parameter takes (at least 1).
	var remainingMilliseconds: Int32 {
		let remaining = timeout - (ContinuousClock.now - start)
		return Int32(clamping: max(1, Int((remaining.timeInterval * 1000).rounded(.up))))
	}

	init(library: SecretServiceLibrary, timeout: Duration) throws(SecretServiceError) {
		guard let cancellable = library.cancellableNew() else {
			throw .failed(message: "GLib could not make a GCancellable")
		}

		self.library = library
		self.timeout = timeout
		self.cancellable = cancellable
		let expiry = DispatchWorkItem { [self] in
			expire()
		}
		state.withLock { $0.expiry = expiry }
		DispatchQueue.global().asyncAfter(deadline: .now() + timeout.dispatchInterval, execute: expiry)
	}

	deinit {
		library.objectUnref(cancellable)
	}

	/// Ends the call: a timer that has not fired yet never will.
	func finish() {
		let expiry = state.withLock { state -> DispatchWorkItem? in
			if state.phase == .running {
				state.phase = .finished
			}

			defer { state.expiry = nil }
			return state.expiry
		}
		expiry?.cancel()
	}

	private func expire() {
		let shouldCancel = state.withLock { state in
			state.expiry = nil
			guard state.phase == .running else {
				return false
			}

			state.phase = .cancelled
			return true
		}
		if shouldCancel {
			library.cancellableCancel(cancellable)
		}
	}
}
#endif
