import Foundation
#if canImport(Glibc)
import Glibc
#endif

/**
When this process started, on the wall clock, to tell a file changed since
from one that was not: whatever this process loaded of it (Foundation's copy
of a suite, say) cannot be older than the process.

Linux gives the start in clock ticks since boot (`/proc/self/stat`, field
22) and the boot's wall-clock time (`btime` in `/proc/stat`); where either
cannot be read, every time counts as after the start.
*/
enum ProcessStart {
	/// Seconds since 1970; `nil` when it cannot be known.
	static let secondsSince1970: Double? = {
		#if os(Linux)
		guard
			let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
			// The command's name, in parentheses, may hold spaces: fields are counted after its last ')'.
			let nameEnd = stat.lastIndex(of: ")"),
			let ticks = stat[stat.index(after: nameEnd)...].split(separator: " ").dropFirst(19).first.flatMap({ Double($0) }),
			let system = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
			let bootLine = system.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }),
			let boot = Double(bootLine.dropFirst("btime ".count)),
			sysconf(Int32(_SC_CLK_TCK)) > 0
		else {
			return nil
		}

		return boot + ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
		#else
		return nil
		#endif
	}()

	/// Whether this process may have started before `time` (a file's modification time); `true` when unknown. The start is known to a second, so a second earlier counts.
	static func mayHaveStartedBefore(_ time: timespec) -> Bool {
		guard let start = secondsSince1970 else {
			return true
		}

		return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9 >= start - 1
	}
}
