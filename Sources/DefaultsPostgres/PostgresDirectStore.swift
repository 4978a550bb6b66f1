#if Postgres
import Defaults
import Foundation
import PostgresNIO

/**
One process's own connection to the table: what a ``Defaults/PostgresRemoteStore``
does when it connects itself (it shares no connection, or it is the process
that connects for its host's others, see ``HostRelay``).

Reads and publishes run on a `PostgresClient` of at most two connections;
`changes()` holds one for `LISTEN`. A failed operation makes the change feeds
announce "anything may have changed" after a backoff, so the synchroniser
reads again and republishes; a publication the table refuses as older is
read back and announced, so the newer value is adopted.
*/
final class PostgresDirectStore: Sendable {
	let namespace: String
	private let database: PostgresSyncDatabase
	private let client: Task<Void, Never>
	/// Tells this store's own notifications apart from other processes' ones.
	private let origin = UUID().uuidString
	private let subscribers = Locked<[UUID: AsyncStream<Set<String>>.Continuation]>([:])
	private let retry: Locked<Retry>
	/// Whether the last full read found rows: a namespace that empties is reported once.
	private let heldRows = Locked(false)

	init(configuration: PostgresClient.Configuration, namespace: String, options: Defaults.PostgresRemoteStore.Options) throws(Defaults.PostgresRemoteStoreError) {
		self.namespace = namespace
		database = try PostgresSyncDatabase(configuration: configuration, table: PostgresSyncTable(schema: options.schema, name: options.table), options: options)
		client = Task.detached { [database] in await database.client.run() }
		retry = Locked(Retry(backoff: Backoff(initial: options.reconnectDelay, maximum: options.maximumReconnectDelay)))
	}

	deinit {
		for continuation in subscribers.withLock({ Array($0.values) }) {
			continuation.finish()
		}

		client.cancel()
	}

	func entries() async throws -> [String: Defaults.RemoteEntry] {
		let (entries, rows) = try await perform(.reading) { [namespace] database in try await database.entries(namespace: namespace) }
		let wasHeld = heldRows.withLock { held in
			defer { held = rows > 0 }
			return held
		}

		if wasHeld, rows == 0 {
			DiagnosticReporter.report(.syncFailed, key: nil, "the table holds no entry of namespace '\(namespace)' any more (a TRUNCATE, a restore?); publishing again what this device holds")
		}

		return entries
	}

	/// What a publication did: the keys the table took (not those it holds newer), and the entries it cannot hold.
	struct Publication: Sendable {
		var applied: Set<String> = []
		/// Entries the server refused for what they hold (a key too long for its index, say), with its error.
		var rejected: [String: Defaults.PostgresRemoteStoreError] = [:]
	}

	/// Publishes `entries`; when the server cannot hold one, throws its error once the others are published.
	func publish(_ entries: [String: Defaults.RemoteEntry]) async throws {
		if let rejection = try await publication(of: entries).rejected.min(by: { $0.key < $1.key }) {
			throw rejection.value
		}
	}

	/**
	Offers `entries` to the table in one statement. When the server refuses
	the statement for what a row holds (``isRejection(_:)``), each row is
	offered again alone, so an entry the table cannot hold never holds back
	the others; it is returned as rejected. Every other failure (the
	connection, an altered table, a server that is read-only or out of disk
	for now) throws, and the entries are published again later.
	*/
	func publication(of entries: [String: Defaults.RemoteEntry]) async throws -> Publication {
		let rows = Self.rows(of: entries)
		guard !rows.isEmpty else {
			return Publication()
		}

		do {
			return Publication(applied: try await offer(rows, of: entries))
		} catch Defaults.PostgresRemoteStoreError.server(let sqlState, let message) where Self.isRejection(sqlState) {
			var publication = Publication()
			guard rows.count > 1 else {
				publication.rejected[rows[0].key] = .server(sqlState: sqlState, message: message)
				return publication
			}

			for row in rows {
				do {
					publication.applied.formUnion(try await offer([row], of: entries))
				} catch Defaults.PostgresRemoteStoreError.server(let sqlState, let message) where Self.isRejection(sqlState) {
					publication.rejected[row.key] = .server(sqlState: sqlState, message: message)
				}
			}

			return publication
		}
	}

	/// Whether a server error of `sqlState` is about what a row holds, so that offering it again cannot work: a data
	/// exception (class 22), a constraint (23) or a limit of the server, such as an index row too large (54).
	static func isRejection(_ sqlState: String) -> Bool {
		["22", "23", "54"].contains(String(sqlState.prefix(2)))
	}

	/// Offers `rows` in one statement; returns the keys the table took, after noticing those it holds newer.
	private func offer(_ rows: [PostgresSyncRow], of entries: [String: Defaults.RemoteEntry]) async throws -> Set<String> {
		let (applied, refused) = try await perform(.publishing) { [rows, namespace, origin] database in
			let applied = try await database.publish(rows, namespace: namespace, origin: origin)
			let refused = rows.filter { !applied.contains($0.key) }
			if !refused.isEmpty {
				// Nothing written at all may mean a table altered under the store: that throws, and is retried.
				try await database.checkColumns()
			}

			return (applied, refused)
		}

		if !refused.isEmpty {
			try await noticeRefusals(of: entries.filter { entry in refused.contains { $0.key == entry.key } })
		}

		return applied
	}

	/// The rows of the entries a table can hold; each other one is reported, and stays on this device.
	static func rows(of entries: [String: Defaults.RemoteEntry]) -> [PostgresSyncRow] {
		var rows: [PostgresSyncRow] = []
		for (key, entry) in entries {
			if let row = PostgresSyncRow(key: key, entry: entry) {
				rows.append(row)
			} else {
				DiagnosticReporter.report(.syncFailed, key: key, "not synced: the value cannot be written as a property list; it stays on this device")
			}
		}

		return rows
	}

	/// Reads again the keys the table refused to take: a newer entry there is a conflict this device lost.
	/// It is reported, and announced on the change feeds, so the synchroniser adopts it (and its clock moves past it).
	private func noticeRefusals(of offered: [String: Defaults.RemoteEntry]) async throws {
		let (stored, _) = try await perform(.publishing) { [namespace] database in try await database.entries(namespace: namespace, keys: Array(offered.keys)) }
		var lost: Set<String> = []
		for (key, entry) in offered.sorted(by: { $0.key < $1.key }) {
			guard let newer = stored[key], newer.timestamp > entry.timestamp else {
				// The same entry (published before), or a row that is skipped and reported.
				continue
			}

			lost.insert(key)
			DiagnosticReporter.report(.syncFailed, key: key, "this device's change stamped \(entry.timestamp) was refused: the table holds a newer one, stamped \(newer.timestamp); adopting it")
		}

		if !lost.isEmpty {
			for continuation in subscribers.withLock({ Array($0.values) }) {
				continuation.yield(lost)
			}
		}
	}

	func changes() -> AsyncStream<Set<String>> {
		let (stream, continuation) = AsyncStream.makeStream(of: Set<String>.self)
		let id = UUID()
		let feed = Task.detached { [database, namespace, origin] in
			await database.followChanges(namespace: namespace, origin: origin, into: continuation)
		}
		let catchUp = database.options.catchUpInterval.map { interval in
			Task.detached {
				while (try? await Task.sleep(for: interval)) != nil {
					continuation.yield([])
				}
			}
		}
		subscribers.withLock { $0[id] = continuation }
		continuation.onTermination = { [weak self] _ in
			feed.cancel()
			catchUp?.cancel()
			self?.subscribers.withLock { $0[id] = nil }
		}

		return stream
	}

	/// What a database operation does, for the backoff: an outage ends when every kind that failed works again.
	enum OperationKind: Sendable {
		case reading
		case publishing
	}

	/// The retries after failures: their backoff, whether one is scheduled, and which kinds of operation fail now.
	private struct Retry {
		var backoff: Backoff
		var isScheduled = false
		var failing: Set<OperationKind> = []
	}

	/**
	Runs a database operation of `kind`; after a failure, the change feeds
	announce "anything may have changed" once a backoff has passed, so the
	synchroniser reads again and republishes what did not arrive. The backoff
	starts again only once every kind that failed works: a table that can be
	read but not written (a trigger, a read-only standby) is retried less and
	less often, not at every read that works.
	*/
	@discardableResult
	private func perform<Value: Sendable>(_ kind: OperationKind, _ operation: @escaping @Sendable (PostgresSyncDatabase) async throws -> Value) async throws -> Value {
		do {
			let value = try await database.run(operation)
			retry.withLock { retry in
				retry.failing.remove(kind)
				if retry.failing.isEmpty {
					retry.backoff.reset()
				}
			}
			return value
		} catch {
			// A row the table cannot hold fails again however often it is retried: only outages are.
			if case .server(let sqlState, _) = error, Self.isRejection(sqlState) {
				throw error
			}

			retry.withLock { _ = $0.failing.insert(kind) }
			scheduleRetry()
			throw error
		}
	}

	private func scheduleRetry() {
		let delay = retry.withLock { retry -> Duration? in
			guard !retry.isScheduled else {
				return nil
			}

			retry.isScheduled = true
			return retry.backoff.delay()
		}

		guard let delay else {
			return
		}

		Task.detached { [weak self] in
			try? await Task.sleep(for: delay)
			guard let self else {
				return
			}

			retry.withLock { $0.isScheduled = false }
			for continuation in subscribers.withLock({ Array($0.values) }) {
				continuation.yield([])
			}
		}
	}
}
#endif
