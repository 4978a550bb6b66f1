import Defaults
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Commands of the signal and fork tests. What the application would see if
// the library let a signal through is printed, so the parent can tell.
//
//   write-block SUITE KEY INT CALL        writes KEY (default write mode), prints "written", then blocks 10 s in CALL
//                                         (sleep, poll, select, epoll: none is restarted after a handler) and prints "returned"
//   write-signal-threads SUITE KEY INT SIGNAL…  writes KEY, starts one sleeping thread per SIGNAL and sends each thread
//                                         its signal at once; a thread whose sleep returns prints "woke", the main thread "alive"
//   write-exit-later SUITE KEY INT MS     writes KEY, prints "written", sleeps; another thread calls exit(0) after MS
//   write-flush-loop SUITE PREFIX [MS]    for 10 s: writes PREFIX<i> = i, prints "set i" (the setter returned), flushes,
//                                         and waits MS milliseconds (default 0)
//   fork-pending SUITE KEY OWN_KEY        writes KEY = 1 (still pending), forks; the child writes OWN_KEY = 3 and exits once
//                                         the parent wrote KEY = 2 and flushed; prints "child exited STATUS"
//   fork-worker SUITE KEY PENDING         a multithreaded parent writes PENDING (its timer still pending) and forks; the
//                                         long-lived child writes KEY = 7, prints "worker PID written" and sleeps until killed

func runProcessCommand(_ arguments: [String]) {
	switch arguments[0] {
	case "write-block":
		let defaults = suite(arguments[1])
		defaults[Defaults.Key<Int>(arguments[2], default: -1, suite: defaults)] = Int(arguments[3])!
		say("written")
		block(in: arguments[4], seconds: 10)
		say("returned")

	case "write-signal-threads":
		let defaults = suite(arguments[1])
		defaults[Defaults.Key<Int>(arguments[2], default: -1, suite: defaults)] = Int(arguments[3])!
		let signals = arguments[4...].map(signalNumber)
		let started = DispatchSemaphore(value: 0)
		let threads = Locked<[pthread_t]>([])
		for _ in signals {
			Thread {
				threads.withLock { $0.append(pthread_self()) }
				started.signal()
				sleep(10)
				say("woke")
			}.start()
		}
		for _ in signals {
			started.wait()
		}
		for (thread, signal) in zip(threads.withLock { $0 }, signals) {
			pthread_kill(thread, signal)
		}
		sleep(10)
		say("alive")

	case "write-exit-later":
		let defaults = suite(arguments[1])
		defaults[Defaults.Key<Int>(arguments[2], default: -1, suite: defaults)] = Int(arguments[3])!
		let delay = UInt32(arguments[4])!
		// The signal must land on the main thread (a thread the signal parks never gets to call exit()): the
		// thread starts with the termination signals blocked, as it inherits the mask it is created under.
		var termination = sigset_t()
		sigemptyset(&termination)
		for number in [SIGTERM, SIGINT, SIGHUP] {
			sigaddset(&termination, number)
		}
		pthread_sigmask(SIG_BLOCK, &termination, nil)
		Thread {
			usleep(delay * 1000)
			say("exiting")
			exit(0)
		}.start()
		pthread_sigmask(SIG_UNBLOCK, &termination, nil)
		say("written")
		sleep(10)
		say("returned")

	case "write-flush-loop":
		let defaults = suite(arguments[1])
		let deadline = Date() + 10
		var index = 0
		while Date() < deadline {
			defaults[Defaults.Key<Int>("\(arguments[2])\(index)", default: -1, suite: defaults)] = index
			say("set \(index)")
			try? Defaults.flush(suite: defaults)
			index += 1
			if arguments.count > 3 {
				usleep(UInt32(arguments[3])! * 1000)
			}
		}

	case "fork-worker":
		forkLongLivedWorker(suite: arguments[1], key: arguments[2], pendingKey: arguments[3])

	case "fork-pending":
		forkWithPendingChanges(suite: arguments[1], key: arguments[2], ownKey: arguments[3])

	default:
		FileHandle.standardError.write(Data("unknown command \(arguments[0])\n".utf8))
		exit(2)
	}
}

/// Blocks in `call` for `seconds`, as an application waiting for work does.
private func block(in call: String, seconds: Int32) {
	switch call {
	case "sleep":
		sleep(UInt32(seconds))
	case "poll":
		poll(nil, 0, seconds * 1000)
	case "select":
		var timeout = timeval(tv_sec: Int(seconds), tv_usec: 0)
		select(0, nil, nil, nil, &timeout)
	case "epoll":
		let descriptor = epoll_create1(O_CLOEXEC)
		// Room for one `struct epoll_event` (12 bytes on x86-64, 16 elsewhere).
		var event = (UInt64(0), UInt64(0))
		// Linux makes epoll_wait fail with EINTR when the process is stopped and resumed, with no handler run
		// (measured: SIGSTOP then SIGCONT returns it, and not poll); a loaded machine does that now and then.
		// Such a return is waited out; a handler that returned would still show with sleep, poll and select.
		let deadline = ContinuousClock.now + .seconds(seconds)
		while epoll_wait(descriptor, &event, 1, Int32(max(0, (deadline - .now) / .milliseconds(1)))) < 0, errno == EINTR, ContinuousClock.now < deadline {}
	default:
		FileHandle.standardError.write(Data("unknown call \(call)\n".utf8))
		exit(2)
	}
}

// Not in the Glibc module.
@_silgen_name("fork")
private func fork() -> pid_t

@_silgen_name("epoll_create1")
private func epoll_create1(_ flags: Int32) -> Int32

@_silgen_name("epoll_wait")
private func epoll_wait(_ descriptor: Int32, _ events: UnsafeMutableRawPointer, _ maximum: Int32, _ milliseconds: Int32) -> Int32

private func forkWithPendingChanges(suite name: String, key keyName: String, ownKey: String) {
	// A window long enough that the first write is still pending when the process forks.
	Defaults.writeMode = .coalesced(milliseconds: 60_000)
	let defaults = suite(name)
	let key = Defaults.Key<Int>(keyName, default: 0, suite: defaults)
	defaults[key] = 1
	var ends: [Int32] = [-1, -1]
	guard pipe(&ends) == 0 else {
		exit(2)
	}

	let child = fork()
	if child == 0 {
		close(ends[1])
		defaults[Defaults.Key<Int>(ownKey, default: 0, suite: defaults)] = 3
		var byte: UInt8 = 0
		_ = read(ends[0], &byte, 1)
		// The exit flush writes what this process changed, and nothing it inherited.
		exit(0)
	}

	close(ends[0])
	defaults[key] = 2
	do {
		try Defaults.flush(suite: defaults)
	} catch {
		say("error \(error)")
		exit(1)
	}

	close(ends[1])
	var status: Int32 = 0
	while waitpid(child, &status, 0) < 0, errno == EINTR {}
	say("child exited \(status)")
}

private func forkLongLivedWorker(suite name: String, key keyName: String, pendingKey: String) {
	let defaults = suite(name)
	// A service that forks workers: it has used the library (and so dispatch's threads) before.
	defaults[Defaults.Key<Int>("\(pendingKey)-before", default: 0, suite: defaults)] = 1
	do {
		try Defaults.flush(suite: defaults)
	} catch {
		say("error \(error)")
		exit(1)
	}

	// Its timer is pending when it forks: the child must not count on it.
	Defaults.writeMode = .coalesced(milliseconds: 2_000)
	defaults[Defaults.Key<Int>(pendingKey, default: 0, suite: defaults)] = 1
	Defaults.writeMode = .coalesced(milliseconds: 50)
	let child = fork()
	if child == 0 {
		defaults[Defaults.Key<Int>(keyName, default: 0, suite: defaults)] = 7
		say("worker \(getpid()) written")
		while true {
			sleep(60)
		}
	}

	var status: Int32 = 0
	while waitpid(child, &status, 0) < 0, errno == EINTR {}
	say("worker ended \(status)")
}
