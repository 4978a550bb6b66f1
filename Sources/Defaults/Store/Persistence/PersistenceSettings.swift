import Foundation

/// Process-wide persistence settings and the queue coalesced flushes run on.
enum PersistenceSettings {
	private static let mode = Locked(Defaults.WriteMode.coalesced(milliseconds: 50))

	static var writeMode: Defaults.WriteMode {
		get { mode.withLock { $0 } }
		set { mode.withLock { $0 = newValue } }
	}

	static let queue = DispatchQueue(label: "Defaults.persistence", qos: .utility)
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
		/// Changes are gathered and written together, at most this long after the first one.
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
