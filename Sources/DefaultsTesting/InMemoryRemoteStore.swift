import Defaults
import Foundation

/**
A sync remote in memory, shared by the devices of a test: give each device's
synchroniser the same instance.

It follows the `Defaults.RemoteStore` rules: per key the entry with the later
timestamp is kept, and every publish is announced on each ``changes()``
stream. `limits` lets a test reproduce a remote's size limits.

```swift
let remote = InMemoryRemoteStore()
Defaults.iCloud.remote = remote
Defaults[.theme] = "dark"
await Defaults.iCloud.waitForSyncCompletion()
#expect(try await remote.entries()["theme"]?.value == "dark")
```
*/
public final class InMemoryRemoteStore: Defaults.RemoteStore {
	private struct State {
		var entries: [String: Defaults.RemoteEntry] = [:]
		var subscribers: [UUID: AsyncStream<Set<String>>.Continuation] = [:]
	}

	public let limits: Defaults.RemoteLimits
	private let state = Locked(State())

	/// An empty remote that holds at most `limits` (by default, anything).
	public init(limits: Defaults.RemoteLimits = .unlimited) {
		self.limits = limits
	}

	public func entries() async throws -> [String: Defaults.RemoteEntry] {
		state.withLock { $0.entries }
	}

	public func publish(_ entries: [String: Defaults.RemoteEntry]) async throws {
		let (changed, subscribers) = state.withLock { state in
			var changed: Set<String> = []
			for (key, entry) in entries where state.entries[key].map({ entry.timestamp > $0.timestamp }) ?? true {
				state.entries[key] = entry
				changed.insert(key)
			}

			return (changed, Array(state.subscribers.values))
		}

		if !changed.isEmpty {
			for subscriber in subscribers {
				subscriber.yield(changed)
			}
		}
	}

	public func changes() -> AsyncStream<Set<String>> {
		let (stream, continuation) = AsyncStream.makeStream(of: Set<String>.self)
		let id = UUID()
		state.withLock { $0.subscribers[id] = continuation }
		continuation.onTermination = { [weak self] _ in
			self?.state.withLock { $0.subscribers[id] = nil }
		}

		return stream
	}
}
