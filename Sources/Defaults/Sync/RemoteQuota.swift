import Foundation

/**
What this device has published to the remote, key by key, held against the
remote's ``Defaults/RemoteLimits``: a pure account (no remote, no lock).

An entry that would take the remote past a limit is refused and the account
stays as it was; the synchroniser reports it and the value stays on the
device. A key published again is counted at its new size, not twice.

<!-- check: internal -->
```swift
var quota = RemoteQuota()
let limits = Defaults.RemoteLimits(maximumKeys: 1)
quota.admit("theme", bytes: 20, within: limits)    // nil: counted
quota.admit("volume", bytes: 20, within: limits)   // .tooManyKeys(maximum: 1)
```
*/
package struct RemoteQuota: Hashable, Sendable {
	/// Why an entry does not fit.
	package enum Refusal: Hashable, Sendable, CustomStringConvertible {
		case tooManyKeys(maximum: Int)
		case tooManyBytes(maximum: Int)

		package var description: String {
			switch self {
			case .tooManyKeys(let maximum):
				"the remote holds at most \(maximum) keys"
			case .tooManyBytes(let maximum):
				"the remote holds at most \(maximum) bytes in all"
			}
		}
	}

	/// The size in bytes of what this device published, by key.
	package private(set) var sizes: [String: Int] = [:]
	/// The sum of ``sizes``.
	package private(set) var totalBytes = 0

	/// An empty account.
	package init() {}

	/**
	Counts `name` at `bytes` (replacing its previous size) when `limits` allow
	it; otherwise changes nothing and returns the limit it would break.
	*/
	@discardableResult
	package mutating func admit(_ name: String, bytes: Int, within limits: Defaults.RemoteLimits) -> Refusal? {
		let previous = sizes[name]
		if let maximum = limits.maximumKeys, sizes.count + (previous == nil ? 1 : 0) > maximum {
			return .tooManyKeys(maximum: maximum)
		}

		let total = totalBytes - (previous ?? 0) + bytes
		if let maximum = limits.maximumTotalBytes, total > maximum {
			return .tooManyBytes(maximum: maximum)
		}

		sizes[name] = bytes
		totalBytes = total
		return nil
	}

	/// The approximate size of an entry on a remote: its key's name, plus its value as a binary property list (a tombstone counts 16).
	package static func bytes(of name: String, _ entry: Defaults.RemoteEntry) -> Int {
		guard let object = entry.value?.storage?.object else {
			return name.utf8.count + 16
		}

		return name.utf8.count + ((try? PropertyListSerialization.data(fromPropertyList: [object], format: .binary, options: 0).count) ?? 0)
	}
}
