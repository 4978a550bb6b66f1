import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/**
Flushes pending changes when SIGTERM, SIGINT or SIGHUP is about to end the
process, without the application ever seeing those signals.

With their default disposition these signals end a process without running
`atexit` handlers, so a write still inside the coalescing window would be lost
(`systemctl stop`, `docker stop`, Ctrl-C, a closed terminal). When the library
first persists a suite, each of the three whose disposition is still the
default gets a handler that writes the signal's number to a pipe (the one
thing it may safely do to ask for work) and then keeps the thread it
interrupted parked, so that no interrupted call (`sleep`, `poll`, `select`,
`epoll_wait`) returns and no code of the application runs on from where the
signal arrived. A dedicated thread, which never takes these signals itself,
reads the pipe, flushes every suite (within ``PersistenceSettings/exitFlushLimit``),
restores the default disposition and raises the signal again: the process ends
killed by that signal, as its parent expects.

Every wait is bounded: a thread parked in the handler ends the process itself
once ``parkingLimit`` has passed, flushed or not, so a flush that cannot
finish never keeps the process alive. The library's own threads, and its
flushes while they hold a suite's locks, hold these signals off
(``TerminationSignals/deferred(_:)``): the parked thread is never one that holds a
lock the flush needs. Signals that reach several threads, or arrive while the
flush runs, join the same flush; the process dies by the first. The
application's other threads run on during the flush, as they would during any
handler; one that calls `exit()` meanwhile waits for the flush at the suite's lock.

The application keeps control: a signal it handles or ignores when the library
looks is left alone (its shutdown ends in `exit()`, which flushes), and a
handler it installs later replaces the library's, which then never runs. A
forked child (which has no flushing thread) dies as if the library were not there.
*/
enum TerminationSignalFlush {
	#if canImport(Glibc)
	/// How long a thread parked by a signal waits for the flush to end the process: the flush's own limit, and as long again to write.
	static let parkingLimit = PersistenceSettings.exitFlushLimit * 2

	private enum Disposition {
		case `default`, ignored, library, application
	}

	static func install() {
		let isFirst = DefaultsSystem.isTerminationSignalFlushInstalled.withLock { installed in
			defer { installed = true }
			return !installed
		}
		guard isFirst else {
			return
		}

		var ends: [Int32] = [-1, -1]
		guard pipe(&ends) == 0 else {
			DiagnosticReporter.report(.persistenceFailed, key: nil, "cannot flush on SIGTERM, SIGINT or SIGHUP: no pipe (\(String(cString: strerror(errno))))")
			return
		}

		for end in ends {
			_ = fcntl(end, F_SETFD, FD_CLOEXEC)
		}
		// The handler must never block on the pipe; a full pipe only means a signal is already waiting to be handled.
		_ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
		// Globals are initialized on first use, which a signal handler must not be.
		signalOwner.store(getpid(), ordering: .sequentiallyConsistent)
		parkingLimitNanoseconds.store(Int64(parkingLimit / .nanoseconds(1)), ordering: .sequentiallyConsistent)
		signalFlushing.store(false, ordering: .sequentiallyConsistent)
		firstSignal.store(0, ordering: .sequentiallyConsistent)
		signalPipe.store(ends[1], ordering: .sequentiallyConsistent)
		let reader = ends[0]
		let thread = Thread {
			flushOnSignals(readingFrom: reader)
		}
		thread.name = "Defaults.TerminationSignalFlush"
		// The thread that flushes must never be the one parked by a signal.
		TerminationSignals.deferred {
			thread.start()
		}

		for signal in TerminationSignals.numbers where disposition(of: signal) == .default {
			var action = sigaction()
			action.__sigaction_handler.sa_handler = parkOnTerminationSignal
			action.sa_flags = SA_RESTART
			// One parked handler per thread: the others of the three wait until it returns, which it normally never does.
			action.sa_mask = TerminationSignals.set
			sigaction(signal, &action, nil)
		}
	}

	/**
	Called by the exit flush once it is done: while a signal's flush is under
	way, the process ends by that signal, not by the `exit()` another thread
	called meanwhile (its parent must see the signal). The wait is the parked
	threads' own, bounded by ``parkingLimit``.
	*/
	static func letAnEndingSignalEndTheProcess() {
		if signalFlushing.load(ordering: .sequentiallyConsistent) {
			waitForTheFlushToEndTheProcess()
		}
	}

	private static func disposition(of signal: Int32) -> Disposition {
		var current = sigaction()
		sigaction(signal, nil, &current)
		guard let handler = current.__sigaction_handler.sa_handler else {
			return .default
		}

		let address = unsafeBitCast(handler, to: Int.self)
		if address == unsafeBitCast(SIG_IGN, to: Int.self) {
			return .ignored
		}

		let library: @convention(c) (Int32) -> Void = parkOnTerminationSignal
		return address == unsafeBitCast(library, to: Int.self) ? .library : .application
	}

	private static func flushOnSignals(readingFrom descriptor: Int32) {
		var byte: UInt8 = 0
		while true {
			let count = read(descriptor, &byte, 1)
			if count < 0, errno == EINTR {
				continue
			}

			guard count == 1 else {
				return
			}

			let signal = Int32(byte)
			ExitFlush.flushEverySuite("\(name(of: signal)) is ending the process")
			endProcess(with: signal)
			// Still running: the application took the signal over meanwhile, so the parked threads go on.
			signalFlushing.store(false, ordering: .sequentiallyConsistent)
		}
	}

	/// Lets the signal do what it would have done without the library: end the process, unless the application took it over meanwhile.
	private static func endProcess(with signal: Int32) {
		switch disposition(of: signal) {
		case .library, .default:
			die(by: signal)
		case .application:
			var set = sigset_t()
			sigemptyset(&set)
			sigaddset(&set, signal)
			pthread_sigmask(SIG_UNBLOCK, &set, nil)
			raise(signal)
		case .ignored:
			return
		}
	}

	private static func name(of signal: Int32) -> String {
		switch signal {
		case SIGTERM: "SIGTERM"
		case SIGINT: "SIGINT"
		case SIGHUP: "SIGHUP"
		default: "signal \(signal)"
		}
	}
	#else
	/// Apple platforms persist every write themselves: nothing to flush.
	static func install() {}

	static func letAnEndingSignalEndTheProcess() {}
	#endif
}

#if canImport(Glibc)
/// Read by the signal handler, so set before it is installed: the pipe's writing end (-1: none), the process that owns the flushing thread, and how long a parked thread waits.
private let signalPipe = Atomic<Int32>(-1)
private let signalOwner = Atomic<Int32>(0)
private let parkingLimitNanoseconds = Atomic<Int64>(0)

/// Whether a signal's flush is under way, and the signal that asked for it (the one the process dies by).
private let signalFlushing = Atomic<Bool>(false)
private let firstSignal = Atomic<Int32>(0)

/// The library's handler: async-signal-safe calls only (`write`, `getpid`, `poll`, `clock_gettime`, `signal`, `raise`, `pthread_sigmask`).
private func parkOnTerminationSignal(_ number: Int32) {
	let savedErrno = errno
	defer { errno = savedErrno }
	let descriptor = signalPipe.load(ordering: .sequentiallyConsistent)
	guard descriptor >= 0, getpid() == signalOwner.load(ordering: .sequentiallyConsistent) else {
		// A forked child has no flushing thread.
		die(by: number)
		return
	}

	// The first signal asks for the flush; any later one, on any thread, waits for the same flush.
	if signalFlushing.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged {
		firstSignal.store(number, ordering: .sequentiallyConsistent)
		var byte = UInt8(truncatingIfNeeded: number)
		_ = write(descriptor, &byte, 1)
	}

	waitForTheFlushToEndTheProcess()
}

/**
Parks the calling thread while the signal's flush runs: the flushing thread
normally ends the process. Returns only if the application took the signal
over meanwhile; after ``TerminationSignalFlush/parkingLimit`` it ends the
process itself, flushed or not.
*/
private func waitForTheFlushToEndTheProcess() {
	let start = monotonicNanoseconds()
	let limit = parkingLimitNanoseconds.load(ordering: .sequentiallyConsistent)
	while signalFlushing.load(ordering: .sequentiallyConsistent) {
		if monotonicNanoseconds() - start > limit {
			let signal = firstSignal.load(ordering: .sequentiallyConsistent)
			die(by: signal == 0 ? SIGTERM : signal)
		}

		// A sleep the flushing thread never needs to cut short: it ends the process rather than waking anyone.
		_ = poll(nil, 0, 5)
	}
}

/// Ends the process by `signal` as its default disposition does, from a handler or a thread that blocks it alike.
private func die(by signal: Int32) {
	Glibc.signal(signal, SIG_DFL)
	raise(signal)
	var set = sigset_t()
	sigemptyset(&set)
	sigaddset(&set, signal)
	pthread_sigmask(SIG_UNBLOCK, &set, nil)
}

private func monotonicNanoseconds() -> Int64 {
	var now = timespec()
	clock_gettime(CLOCK_MONOTONIC, &now)
	return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}
#endif
