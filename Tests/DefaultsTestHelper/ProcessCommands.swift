import Defaults
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Commands of the signal tests. What the application would see if
// the library let a signal through is printed, so the parent can tell.
//
//   write-block SUITE KEY INT CALL        writes KEY (default write mode), prints "written", then blocks 10 s in CALL
//                                         (sleep, poll, select, epoll: none is restarted after a handler) and prints "returned"
//   write-signal-threads SUITE KEY INT SIGNAL…  writes KEY, starts one sleeping thread per SIGNAL and sends each thread
//                                         its signal at once; a thread whose sleep returns prints "woke", the main thread "alive"
//   write-exit-later SUITE KEY INT MS     writes KEY, prints "written", sleeps; another thread calls exit(0) after MS
//   write-flush-loop SUITE PREFIX         for 10 s: writes PREFIX<i> = i, prints "set i" (the setter returned), flushes

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
		say("written")
		let delay = UInt32(arguments[4])!
		Thread {
			usleep(delay * 1000)
			say("exiting")
			exit(0)
		}.start()
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
		}

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
		_ = epoll_wait(descriptor, &event, 1, seconds * 1000)
	default:
		FileHandle.standardError.write(Data("unknown call \(call)\n".utf8))
		exit(2)
	}
}

// Not in the Glibc module.
@_silgen_name("epoll_create1")
private func epoll_create1(_ flags: Int32) -> Int32

@_silgen_name("epoll_wait")
private func epoll_wait(_ descriptor: Int32, _ events: UnsafeMutableRawPointer, _ maximum: Int32, _ milliseconds: Int32) -> Int32
