#if Configuration
import Configuration
import Defaults

extension DefaultsProvider {
	/**
	Hands `updatesHandler` the value of `key` now, then again each time it
	changes, until the handler returns.

	Changes arrive from the library's change engine: writes through
	`Defaults` in this process, resets, sync pulls, and other processes'
	writes to the suite's file, `defaults write` among them. Only changes to
	the stored name holding `key` wake the watcher (`http` for `http.timeout`
	nested), and a change that leaves the value as it was is not delivered.
	A burst of changes may reach a slow consumer as its last value only.

	```swift
	try await provider.watchValue(forKey: ["http", "timeout"], type: .double) { updates in
		for await result in updates {
			print(try result.get().value?.content as Any)
		}
	}
	```
	*/
	public nonisolated(nonsending) func watchValue<Return: ~Copyable>(
		forKey key: AbsoluteConfigKey,
		type: ConfigType,
		updatesHandler: nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>) async throws -> Return
	) async throws -> Return {
		let names = lookup.keyMapping.storedName(of: key).map { [$0] } ?? []
		let changes = ChangeStream(suite: suite, names: names) { [self] in
			WatchedLookup(Result { try value(forKey: key, type: type) })
		}
		defer { changes.stop() }
		return try await updatesHandler(ConfigUpdatesAsyncSequence(changes.stream.map(\.result)))
	}

	/**
	Hands `updatesHandler` a snapshot of the suite now, then a new one each
	time any of its values changes, until the handler returns.

	Each snapshot is read at once, so it is consistent; a change that leaves
	every value as it was delivers nothing.

	```swift
	try await provider.watchSnapshot { snapshots in
		for await snapshot in snapshots {
			let limit = try snapshot.value(forKey: ["limits", "requests"], type: .int)
			print(limit.value?.content as Any)
		}
	}
	```
	*/
	public nonisolated(nonsending) func watchSnapshot<Return: ~Copyable>(
		updatesHandler: nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>) async throws -> Return
	) async throws -> Return {
		let changes = ChangeStream(suite: suite, names: nil) { [self] in
			currentSnapshot()
		}
		defer { changes.stop() }
		return try await updatesHandler(ConfigUpdatesAsyncSequence(changes.stream.map { $0 as any ConfigSnapshot }))
	}
}

#endif
