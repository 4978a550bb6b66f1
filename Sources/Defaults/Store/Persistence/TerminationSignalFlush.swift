import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/**
Flushes pending changes when SIGTERM, SIGINT or SIGHUP is about to end the
process, without taking those signals from the application.

With their default disposition these signals end a process without running
`atexit` handlers, so a write still inside the coalescing window would be lost
(`systemctl stop`, `docker stop`, Ctrl-C, a closed terminal). When the library
first persists a suite, each of the three whose disposition is still the
default gets a handler that only writes the signal's number to a pipe (the one
thing a handler may safely do). A dedicated thread reads it, flushes every
suite (within ``PersistenceSettings/exitFlushLimit``), restores the default
disposition and raises the signal again: the process still ends killed by that
signal, as its parent expects.

The application keeps control: a signal it handles or ignores when the library
looks is left alone (its shutdown ends in `exit()`, which flushes), and a
handler it installs later replaces the library's, which then never runs. A
second signal while the flush runs ends the process at once, and a forked child
(which has no flushing thread) dies as if the library were not there.
*/
enum TerminationSignalFlush {
	#if canImport(Glibc)
	static let signals: [Int32] = [SIGTERM, SIGINT, SIGHUP]

	private static let installed = Locked(false)

	private enum Disposition {
		case `default`, ignored, library, application
	}

	static func install() {
		let isFirst = installed.withLock { installed in
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
		// The handler must never block; a full pipe only means a signal is already waiting to be handled.
		_ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
		signalOwner.store(getpid(), ordering: .sequentiallyConsistent)
		signalPipe.store(ends[1], ordering: .sequentiallyConsistent)
		let reader = ends[0]
		let thread = Thread {
			flushOnSignals(readingFrom: reader)
		}
		thread.name = "Defaults.TerminationSignalFlush"
		thread.start()

		for signal in signals where disposition(of: signal) == .default {
			var action = sigaction()
			action.__sigaction_handler.sa_handler = forwardTerminationSignal
			action.sa_flags = SA_RESTART
			sigemptyset(&action.sa_mask)
			sigaction(signal, &action, nil)
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

		let library: @convention(c) (Int32) -> Void = forwardTerminationSignal
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
			signalFlushing.store(true, ordering: .sequentiallyConsistent)
			Persistence.flushBeforeExit("\(name(of: signal)) is ending the process")
			endProcess(with: signal)
			signalFlushing.store(false, ordering: .sequentiallyConsistent)
		}
	}

	/// Lets the signal do what it would have done without the library: end the process, unless the application took it over meanwhile.
	private static func endProcess(with signal: Int32) {
		switch disposition(of: signal) {
		case .library:
			Glibc.signal(signal, SIG_DFL)
		case .ignored:
			return
		case .default, .application:
			break
		}

		var set = sigset_t()
		sigemptyset(&set)
		sigaddset(&set, signal)
		pthread_sigmask(SIG_UNBLOCK, &set, nil)
		raise(signal)
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
	#endif
}

#if canImport(Glibc)
/// Read by the signal handler, so set before it is installed: the pipe's writing end (-1: none), the process that owns the flushing thread, and whether a flush is under way.
private let signalPipe = Atomic<Int32>(-1)
private let signalOwner = Atomic<Int32>(0)
private let signalFlushing = Atomic<Bool>(false)

/// The library's handler: async-signal-safe calls only (`write`, `getpid`, `signal`, `raise`).
private func forwardTerminationSignal(_ number: Int32) {
	let savedErrno = errno
	defer { errno = savedErrno }
	let descriptor = signalPipe.load(ordering: .sequentiallyConsistent)
	guard
		descriptor >= 0,
		getpid() == signalOwner.load(ordering: .sequentiallyConsistent),
		!signalFlushing.load(ordering: .sequentiallyConsistent)
	else {
		// A forked child has no flushing thread, and a second signal does not wait for the first one's flush.
		signal(number, SIG_DFL)
		raise(number)
		return
	}

	var byte = UInt8(truncatingIfNeeded: number)
	_ = write(descriptor, &byte, 1)
}
#endif
