import Foundation

/// A stable name for this device: the machine ID on Linux, the host name elsewhere.
package enum DeviceIdentity {
	package static let current: String = {
		if let machineID = try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), !machineID.isEmpty {
			return machineID
		}

		return ProcessInfo.processInfo.hostName
	}()
}
