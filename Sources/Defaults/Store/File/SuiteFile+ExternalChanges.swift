import Foundation

/**
What other processes wrote: the file is read again when the watcher sees it
change (and when a flush finds nothing of this process's to write), and the
keys that changed, leaving out those this process is about to write, go to
the suite's values and their observers.
*/
extension SuiteFile {
	/// Re-reads the file after another process changed it and delivers what changed.
	func fileDidChange() {
		fileLock.lock()
		var outcome = changesSinceLastLook()
		applyToValues(&outcome)
		fileLock.unlock()
		deliver(outcome)
	}

	/// What other processes changed in the file since this process last read or wrote it; call with `fileLock` held.
	func changesSinceLastLook() -> Outcome {
		let identity = fileSystem.identity(of: url)
		let version = state.withLock { $0.lastKnownVersion }
		guard
			!((try? version.isCurrent(identity) { () throws(Defaults.PersistenceError) in try fileSystem.read(url) }) ?? false),
			let (contents, data) = contentsAfterExternalChange(identity: identity)
		else {
			return Outcome()
		}

		let external = state.withLock { state in
			let known = state.lastKnown.values
			state.changedSinceBaseline.formUnion(PropertyListFileContents.changedKeys(from: known, to: contents))
			let external = externalChanges(from: known, to: contents, excluding: Set(state.flush.pending.keys))
			state.lastKnown.replace(with: contents, readFrom: data)
			state.lastKnownVersion = FileVersion(identity: identity, contents: data)
			for (name, value) in external {
				state.size.record(name, value)
			}
			return external
		}

		return Outcome(external: external)
	}

	/**
	The file's values after another process changed it, or `nil` when they
	cannot be known (it does not parse, or reading failed).

	A deleted file (`rm`, `defaults delete`) holds no values: every key it held
	changes to absent. Only a file that is really gone counts as deleted; a
	read error must not be mistaken for one, or the next flush would write the
	suite back without its keys.
	*/
	private func contentsAfterExternalChange(identity: FileIdentity?) -> (contents: [String: PropertyListValue], data: Data?)? {
		let data: Data?
		do {
			data = try fileSystem.read(url)
		} catch {
			return nil
		}

		switch PropertyListFileContents.decode(data) {
		case .missing:
			return identity == nil ? ([:], nil) : nil
		case .contents(let contents):
			return (contents, data)
		case .unreadable, .tooLarge:
			return nil
		}
	}

	/// What other processes changed between two readings of the file (each key's new value), leaving out keys this process is about to write.
	func externalChanges(
		from old: [String: PropertyListValue],
		to new: [String: PropertyListValue],
		excluding pending: Set<String>
	) -> [String: PropertyListValue?] {
		externalChanges(PropertyListFileContents.changedKeys(from: old, to: new).subtracting(pending), in: new)
	}

	/// The new values of `names` in `new` (`nil`: removed).
	func externalChanges(_ names: Set<String>, in new: [String: PropertyListValue]) -> [String: PropertyListValue?] {
		var changes: [String: PropertyListValue?] = [:]
		for name in names {
			changes[name] = .some(new[name])
		}

		return changes
	}
}
