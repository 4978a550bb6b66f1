import Foundation

/// Process-wide persistence settings and the queue coalesced flushes run on.
enum PersistenceSettings {
	private static let mode = Locked(Defaults.WriteMode.coalesced(milliseconds: 50))

	static var writeMode: Defaults.WriteMode {
		get { mode.withLock { $0 } }
		set { mode.withLock { $0 = newValue } }
	}

	static let queue = DispatchQueue(label: "Defaults.persistence", qos: .utility)

	/// How many times its last write's duration a suite waits before the next: persisting a large suite takes at most about a fifth of a core.
	static let slowWriteSpacing = 4

	/// The wait before a coalesced write: the configured window, or longer for a suite whose writes are slow.
	static func coalescingDelay(milliseconds: Int, lastWriteDuration: DispatchTimeInterval) -> DispatchTimeInterval {
		let window = max(0, milliseconds) * 1_000_000
		guard case .nanoseconds(let last) = lastWriteDuration else {
			return .nanoseconds(window)
		}

		return .nanoseconds(max(window, last * slowWriteSpacing))
	}
}

extension Defaults {
	/**
	When the library writes changes to disk (Linux; Apple platforms persist on their own).

	```swift
	Defaults.writeMode = .writeThrough                 // every write is durable before it returns
	Defaults.writeMode = .coalesced(milliseconds: 50)  // the default
	```
	*/
	public enum WriteMode: Sendable, Hashable {
		/**
		Changes are gathered and written together, this long after the first one.

		A suite so large that writing its file takes longer than a quarter of
		the window waits four times that duration instead (about 200 ms at
		10,000 keys on a small machine), so persisting never costs more than
		about a fifth of one core.
		*/
		case coalesced(milliseconds: Int)

		/// Each write is on disk before the subscript setter returns. Slower; for tools and tests.
		case writeThrough
	}

	/**
	How the library persists writes. Defaults to `.coalesced(milliseconds: 50)`.

	Whatever the mode, pending changes are also written at normal process exit
	(`return` from `main`, `exit()`) and by ``flush(suite:)``.

	```swift
	Defaults.writeMode = .writeThrough
	```
	*/
	public static var writeMode: WriteMode {
		get { PersistenceSettings.writeMode }
		set { PersistenceSettings.writeMode = newValue }
	}
}
