import Foundation

/// Issues the timestamps of one device's changes (`package`: the `defaults` tool stamps a fleet's writes with it).
package final class HybridLogicalClock: Sendable {
	private let wallClock: @Sendable () -> Int64
	private let last: Locked<(milliseconds: Int64, counter: UInt32, device: String)>

	package init(device: String, wallClock: @escaping @Sendable () -> Int64 = HybridLogicalClock.systemMilliseconds) {
		self.wallClock = wallClock
		last = Locked((0, 0, device))
	}

	/// The name the clock signs its timestamps with.
	package var device: String {
		get { last.withLock { $0.device } }
		set { last.withLock { $0.device = newValue } }
	}

	/// The wall clock's reading, in Unix milliseconds.
	var wallMilliseconds: Int64 {
		wallClock()
	}

	package static func systemMilliseconds() -> Int64 {
		Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
	}

	/// A timestamp later than every one this clock issued or saw.
	package func now() -> Defaults.SyncTimestamp {
		let wall = wallClock()
		return last.withLock { last in
			if wall > last.milliseconds {
				(last.milliseconds, last.counter) = (wall, 0)
			} else if last.counter >= Defaults.SyncTimestamp.maximumCounter, last.milliseconds < .max {
				// Never overflow: the counter carries into the next millisecond, which is still later than all before it.
				(last.milliseconds, last.counter) = (last.milliseconds + 1, 0)
			} else {
				last.counter = min(last.counter, UInt32.max - 1) + 1
			}

			return Defaults.SyncTimestamp(milliseconds: last.milliseconds, counter: last.counter, device: last.device)
		}
	}

	/// Moves the clock past a timestamp, seen from any device; callers refuse implausible ones first.
	package func observe(_ timestamp: Defaults.SyncTimestamp) {
		last.withLock { last in
			if (timestamp.milliseconds, timestamp.counter) > (last.milliseconds, last.counter) {
				(last.milliseconds, last.counter) = (timestamp.milliseconds, timestamp.counter)
			}
		}
	}
}
