import Foundation

extension Defaults {
	/**
	When a synced key was explicitly changed, on a hybrid logical clock.

	Timestamps are ordered by wall-clock milliseconds, then by a counter that
	keeps a device's own changes in order when its clock stalls or goes back,
	then by device ID (a deterministic tie-break). A device's clock never runs
	behind a timestamp it has seen, so a change made after adopting a remote
	value is always ordered after it, whatever the devices' clocks say.

	A timestamp no real clock gives — more than ``maximumLead`` ahead of the
	reading device's clock, or a counter above ``maximumCounter`` — is refused
	with a `syncFailed` diagnostic instead of being adopted: one damaged or
	hostile entry cannot push every device's clock out of reach.

	```swift
	let earlier = Defaults.SyncTimestamp(milliseconds: 1_000, counter: 0, device: "mac")
	let later = Defaults.SyncTimestamp(milliseconds: 1_000, counter: 1, device: "mac")
	print(earlier < later) // true
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

		/// How far ahead of a device's clock a timestamp may be and still be adopted: ten years, in milliseconds.
		/// Clocks set wrong by a year or two stay in sync; a restore or an edit that stamps a value in 2100 does not.
		public static let maximumLead: Int64 = 10 * 366 * 86_400_000

		/// The highest counter a timestamp may have. A clock carries into the next millisecond
		/// rather than go beyond it, so it takes more changes than any device makes to reach.
		public static let maximumCounter = UInt32(Int32.max)

		/// Why no real clock gives this timestamp at `now` (Unix milliseconds), or `nil` when one could.
		package func implausibility(at now: Int64) -> String? {
			if counter > Self.maximumCounter {
				return "its counter \(counter) is above \(Self.maximumCounter)"
			}

			let (lead, overflow) = milliseconds.subtractingReportingOverflow(now)
			if milliseconds > now, overflow || lead > Self.maximumLead {
				return "its time \(milliseconds) is more than ten years ahead of this device's clock (\(now))"
			}

			return nil
		}
	}
}

extension Defaults.SyncTimestamp {
	/// How ledgers and journals store a timestamp: `[milliseconds, counter, device]`.
	package var propertyListValue: PropertyListValue {
		.array([.integer(Int(milliseconds)), .integer(Int(counter)), .string(device)])
	}

	package init?(propertyListValue stored: PropertyListValue) {
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
