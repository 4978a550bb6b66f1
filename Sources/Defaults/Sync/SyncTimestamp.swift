import Foundation

extension Defaults {
	/**
	When a synced key was explicitly changed, on a hybrid logical clock.

	Timestamps are ordered by wall-clock milliseconds, then by a counter that
	keeps a device's own changes in order when its clock stalls or goes back,
	then by device ID (a deterministic tie-break). A device's clock never runs
	behind a timestamp it has seen, so a change made after adopting a remote
	value is always ordered after it, whatever the devices' clocks say.

	```swift
	let earlier = Defaults.SyncTimestamp(milliseconds: 1_000, counter: 0, device: "mac")
	let later = Defaults.SyncTimestamp(milliseconds: 1_000, counter: 1, device: "mac")
	earlier < later //=> true
	```
	*/
	public struct SyncTimestamp: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
		/// Wall-clock time, in milliseconds since 1970.
		public let milliseconds: Int64
		/// Orders changes within one millisecond, or while the wall clock is behind.
		public let counter: UInt32
		/// The device that made the change.
		public let device: String

		/// The stamp of a change made at `milliseconds` (Unix time), `counter`-th within it, by `device`.
		public init(milliseconds: Int64, counter: UInt32, device: String) {
			self.milliseconds = milliseconds
			self.counter = counter
			self.device = device
		}

		public static func < (lhs: Self, rhs: Self) -> Bool {
			(lhs.milliseconds, lhs.counter, lhs.device) < (rhs.milliseconds, rhs.counter, rhs.device)
		}

		public var description: String {
			"\(milliseconds).\(counter)@\(device)"
		}
	}
}

extension Defaults.SyncTimestamp {
	/// How ledgers and journals store a timestamp: `[milliseconds, counter, device]`.
	var propertyListValue: PropertyListValue {
		.array([.integer(Int(milliseconds)), .integer(Int(counter)), .string(device)])
	}

	init?(propertyListValue stored: PropertyListValue) {
		guard
			case .array(let parts) = stored, parts.count == 3,
			case .integer(let milliseconds) = parts[0],
			case .integer(let counter) = parts[1],
			case .string(let device) = parts[2],
			let counter = UInt32(exactly: counter)
		else {
			return nil
		}

		self.init(milliseconds: Int64(milliseconds), counter: counter, device: device)
	}
}

/// Issues the timestamps of one device's changes.
final class HybridLogicalClock: Sendable {
	let device: String
	private let wallClock: @Sendable () -> Int64
	private let last: Locked<(milliseconds: Int64, counter: UInt32)>

	init(device: String, wallClock: @escaping @Sendable () -> Int64 = HybridLogicalClock.systemMilliseconds) {
		self.device = device
		self.wallClock = wallClock
		last = Locked((0, 0))
	}

	static func systemMilliseconds() -> Int64 {
		Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
	}

	/// A timestamp later than every one this clock issued or saw.
	func now() -> Defaults.SyncTimestamp {
		let wall = wallClock()
		let (milliseconds, counter) = last.withLock { last in
			if wall > last.milliseconds {
				last = (wall, 0)
			} else {
				last.counter += 1
			}

			return last
		}

		return Defaults.SyncTimestamp(milliseconds: milliseconds, counter: counter, device: device)
	}

	/// Moves the clock past a timestamp from another device.
	func observe(_ timestamp: Defaults.SyncTimestamp) {
		last.withLock { last in
			if (timestamp.milliseconds, timestamp.counter) > (last.milliseconds, last.counter) {
				last = (timestamp.milliseconds, timestamp.counter)
			}
		}
	}
}
