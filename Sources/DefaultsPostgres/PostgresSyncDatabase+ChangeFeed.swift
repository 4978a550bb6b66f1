#if Postgres
import Defaults
import Foundation
import PostgresNIO

extension PostgresSyncDatabase {
	/**
	Yields the keys other processes change in `namespace` until cancelled.

	One connection of the pool stays leased for `LISTEN`. Each time listening
	starts (the first time, and after every reconnection) it yields `[]`,
	"anything may have changed", so the synchroniser reads the namespace once
	and nothing published while the feed was away is missed. A lost connection
	is reported once per outage and retried with backoff.
	*/
	func followChanges(namespace: String, origin: String, into continuation: AsyncStream<Set<String>>.Continuation) async {
		let outage = Locked<(reason: String?, backoff: Backoff)>((nil, Backoff(initial: options.reconnectDelay, maximum: options.maximumReconnectDelay)))
		while !Task.isCancelled {
			let failure = await listen(namespace: namespace, origin: origin, into: continuation) {
				let recovered = outage.withLock { outage in
					defer {
						outage.reason = nil
						outage.backoff.reset()
					}

					return outage.reason
				}

				if recovered != nil, Defaults.iCloud.isDebug {
					DiagnosticReporter.report(.syncEvent, key: nil, "PostgreSQL change feed of namespace '\(namespace)' is back; catching up")
				}

				continuation.yield([])
			}

			guard !Task.isCancelled else {
				return
			}

			let (isNewOutage, delay) = outage.withLock { outage in
				defer { outage.reason = failure.description }
				return (outage.reason == nil, outage.backoff.delay())
			}

			if isNewOutage {
				DiagnosticReporter.report(.syncFailed, key: nil, "PostgreSQL change feed of namespace '\(namespace)' lost: \(failure); reconnecting with backoff, then catching up")
			}

			try? await Task.sleep(for: delay)
		}
	}

	/// Listens until the connection ends; returns why. `onListening` runs once `LISTEN` is in effect.
	private func listen(
		namespace: String,
		origin: String,
		into continuation: AsyncStream<Set<String>>.Continuation,
		onListening: @escaping @Sendable () -> Void
	) async -> Defaults.PostgresRemoteStoreError {
		let timeout = options.operationTimeout
		do {
			try await withThrowingTaskGroup(of: Bool.self) { group in
				let leased = Locked(false)
				group.addTask {
					try await self.client.withConnection { connection in
						leased.withLock { $0 = true }
						try await connection.listen(on: self.table.channel) { notifications in
							onListening()
							for try await notification in notifications {
								if let keys = ChangeNotice.keys(in: notification.payload, namespace: namespace, origin: origin) {
									continuation.yield(keys)
								}
							}
						}
					}

					return true
				}
				// A connection that cannot be made is retried by the pool forever: give up on the lease in time.
				group.addTask { [connectionErrors] in
					try await Task.sleep(for: timeout)
					if !leased.withLock({ $0 }) {
						throw Defaults.PostgresRemoteStoreError.unreachable(after: timeout, lastConnectionError: connectionErrors.lastError)
					}

					return false
				}

				while let feedEnded = try await group.next() {
					if feedEnded {
						group.cancelAll()
						return
					}
				}
			}

			return .connectionLost("the server closed the connection")
		} catch {
			return failure(error)
		}
	}
}

/// A `NOTIFY` payload: `{"n": namespace, "o": origin, "k": [keys]}`; without `k`, any key of the namespace may have changed.
private struct ChangeNotice: Decodable {
	let n: String
	let o: String
	let k: [String]?

	/// The keys to yield, or `nil` for another namespace's change, this store's own one, or a payload it does not understand.
	static func keys(in payload: String, namespace: String, origin: String) -> Set<String>? {
		guard let notice = try? JSONDecoder().decode(Self.self, from: Data(payload.utf8)), notice.n == namespace, notice.o != origin else {
			return nil
		}

		return Set(notice.k ?? [])
	}
}
#endif
