import Foundation

/**
The slow part of a flush done before the inter-process lock is taken, so
other processes do not wait for it: the new file is encoded, written and
synced beside the suite's, and renamed into place under the lock if the
file is still the version it was prepared from.
*/
extension SuiteFile {
	/// A write prepared before the inter-process lock is taken, from the file as it was then.
	struct WriteAhead {
		/// The file's contents and version it was prepared from: it is used only if the file is still at that version under the lock.
		let base: (contents: [String: PropertyListValue], version: FileVersion)
		/// Whether the base is what this process last read or wrote (the file had not changed), rather than the file read again.
		let isBaseLastKnown: Bool
		/// The base with the pending changes applied.
		let contents: [String: PropertyListValue]
		/// The new file, written and synced beside the suite's; `nil` when the changes leave the contents as they are.
		let replacement: PreparedReplacement?
		let digest: Int?
		/// How long preparing took.
		let nanoseconds: UInt64
	}

	/**
	Applies `pending` to the file as it is now and writes the result beside it,
	ahead of the lock: from what this process last read or wrote when the file
	has not changed since, else from the file read again now. `nil` when there
	is no file, it does not read, or the result would grow past the suite's
	size budget (others' writes met since the changes were admitted): the write
	is then done under the lock, whose merge refuses what does not fit.
	*/
	func writeAhead(applying pending: [(name: String, change: FlushPolicy.Change)]) -> WriteAhead? {
		let start = DispatchTime.now()
		guard let identity = fileSystem.identity(of: url) else {
			return nil
		}

		var (contents, version) = state.withLock { ($0.lastKnown.keepAsValues(), $0.lastKnownVersion) }
		var isBaseLastKnown = true
		let lookedAt = FileVersion.now()
		if (try? version.isCurrent(identity, contents: { () throws(Defaults.PersistenceError) in try fileSystem.read(url) })) == true {
			// Checked here, a version written moments ago (whose identity alone cannot tell) needs no read under the lock.
			version = version.confirmed(at: lookedAt)
		} else {
			// The identity is taken before the bytes are read: a file replaced in between is seen as changed under the lock.
			guard let data = try? fileSystem.read(url), case .contents(let current) = PropertyListFileContents.decode(data) else {
				return nil
			}

			(contents, version) = (current, FileVersion(identity: identity, contents: data))
			isBaseLastKnown = false
		}

		let base = (contents: contents, version: version)
		for (name, change) in pending {
			contents[name] = change.value
		}

		var replacement: PreparedReplacement?
		var digest: Int?
		// Only the pending names can differ: comparing them spares a walk of the whole suite.
		if pending.contains(where: { base.contents[$0.name] != $0.change.value }) {
			let budget = Int64(state.withLock { $0.size.budget.perSuite })
			guard
				let data = try? PropertyListFileContents.encode(contents, for: url.path),
				Int64(data.count) <= budget || Int64(data.count) <= PropertyListFileContents.encodedSize(base.contents),
				let prepared = try? fileSystem.prepareReplacement(of: url, with: data)
			else {
				return nil
			}

			(replacement, digest) = (prepared, FileVersion.digest(data))
		}

		return WriteAhead(base: base, isBaseLastKnown: isBaseLastKnown, contents: contents, replacement: replacement, digest: digest, nanoseconds: DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds)
	}
}
