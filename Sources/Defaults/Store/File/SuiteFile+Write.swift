import Foundation

/**
The write of a flush or a commit under the inter-process lock, in four
steps: read the file as it is now (``read(_:aheadOf:)``), merge this
process's changes over it (``SuiteFileMerge``, a value that does no I/O),
replace the file (``replace(_:found:merge:ahead:isAheadRenamed:)``), and
record what the file holds now (``record(_:found:replaced:pending:)``).
*/
extension SuiteFile {
	/// The file as this process found it under the inter-process lock, and what it knew of it before.
	struct FileUnderLock {
		/// The file's contents: as last read or written when nobody wrote it since, else read again (or recovered, when they did not read).
		var onDisk: [String: PropertyListValue]
		/// The version `onDisk` is.
		var version: FileVersion
		/// Nobody wrote the file since the write ahead was prepared from it: its replacement is renamed into place.
		var isAsWrittenAhead = false
		/// The file did not read and was set aside: it is written even when no value changes.
		var mustRewrite = false
		/// The keys other processes changed since this process last looked at the file.
		var changedByOthers: Set<String> = []
		/// `State.changedSinceBaseline` when the file was found.
		let changedSinceBaseline: Set<String>
		/// `State.foundationMayPredateTheFile` when the file was found.
		let foundationMayPredateTheFile: Bool
		/// What to report: a file that did not read.
		var diagnostics: [Defaults.Diagnostic] = []
	}

	/// The file as a flush replaced it.
	struct Replaced {
		/// What the file holds: the merge's contents, or Foundation's copy of them when a raw save put a key back.
		let contents: [String: PropertyListValue]
		let version: FileVersion
		/// Whether Foundation's copy changed what the merge wrote.
		let isChangedByFoundation: Bool
		/// How long writing the file took, including the write ahead of the lock.
		let duration: Duration
		let diagnostics: [Defaults.Diagnostic]
	}

	/**
	Applies the pending changes to the file, with what `commit` decides, in
	one ``LockedReplace``; returns the keys other processes changed
	meanwhile, the committed changes and what to report.
	*/
	func writePending(waitingUntil deadline: ContinuousClock.Instant, committing commit: CommitDecision?) throws(Defaults.PersistenceError) -> Outcome {
		// A copy made under the lock: the dictionary's storage is never shared with a thread that records meanwhile.
		let pending = state.withLock { $0.flush.changesToWrite }
		guard !pending.isEmpty || commit != nil else {
			// Nothing to write: a flush still brings in what others wrote (raw `synchronize()` in this process among them).
			return changesSinceLastLook()
		}

		// Other processes wait for the lock while it is held: the new file is encoded, written and synced before.
		let ahead = commit == nil ? writeAhead(applying: pending) : nil
		var isAheadRenamed = false
		defer {
			if let replacement = ahead?.replacement, !isAheadRenamed {
				fileSystem.discardReplacement(replacement)
			}
		}

		return try fileSystem.replacingContents(of: url, waitingUntil: deadline) { file throws(Defaults.PersistenceError) in
			let found = try read(file, aheadOf: ahead)
			let merge = try SuiteFileMerge(
				pending: pending,
				onto: found.onDisk,
				writtenAhead: found.isAsWrittenAhead ? ahead?.contents : nil,
				committing: commit,
				size: state.withLock { $0.size },
				suite: domainName,
				path: url.path
			)
			let replaced = try replace(file, found: found, merge: merge, ahead: ahead, isAheadRenamed: &isAheadRenamed)
			return Outcome(
				external: record(merge, found: found, replaced: replaced, pending: pending),
				diagnostics: found.diagnostics + merge.diagnostics + (replaced?.diagnostics ?? []),
				committed: merge.committed,
				refused: merge.refused
			)
		}
	}

	/// Reads the file under the inter-process lock: only when someone wrote it since this process last read or wrote it (or since the write ahead read it).
	private func read(_ file: LockedReplace, aheadOf ahead: WriteAhead?) throws(Defaults.PersistenceError) -> FileUnderLock {
		let identity = file.identity
		let (changedSinceBaseline, foundationMayPredateTheFile, lastLooked, lastLookedVersion) = state.withLock {
			($0.changedSinceBaseline, $0.foundationMayPredateTheFile, $0.lastKnown.keepAsValues(), $0.lastKnownVersion)
		}
		let (lastKnown, lastKnownVersion) = ahead?.base ?? (lastLooked, lastLookedVersion)
		var found = FileUnderLock(
			onDisk: lastKnown,
			version: lastKnownVersion,
			changedSinceBaseline: changedSinceBaseline,
			foundationMayPredateTheFile: foundationMayPredateTheFile
		)
		var isOnDiskLastLooked = false
		if identity != nil, try lastKnownVersion.isCurrent(identity, contents: file.data) {
			// Nobody wrote the file since this process last read or wrote it (or, for a write ahead, since it was read for it).
			found.isAsWrittenAhead = ahead != nil
			isOnDiskLastLooked = ahead?.isBaseLastKnown ?? true
		} else {
			let (reading, data, settledIdentity) = try readSettled(identity)
			found.version = FileVersion(identity: settledIdentity, contents: data)
			switch reading {
			case .missing:
				found.onDisk = [:]
			case .contents(let contents):
				found.onDisk = contents
			case .unreadable, .tooLarge:
				let recovered = try recoverFromUnreadableFile(reading)
				found.onDisk = recovered.contents
				found.diagnostics.append(recovered.diagnostic)
				found.mustRewrite = true
			}
		}

		// The file lock is held: nobody changed what this process last saw of the file since `lastLooked` was read.
		found.changedByOthers = isOnDiskLastLooked ? [] : PropertyListFileContents.changedKeys(from: lastLooked, to: found.onDisk)
		return found
	}

	/**
	Replaces the file with what the merge decided (renaming the write ahead
	into place when the file is still the version it was prepared from), and
	keeps Foundation's copy of the suite in step; `nil` when the file already
	holds it. `isAheadRenamed` turns true once the write ahead is renamed.
	*/
	private func replace(
		_ file: LockedReplace,
		found: FileUnderLock,
		merge: SuiteFileMerge,
		ahead: WriteAhead?,
		isAheadRenamed: inout Bool
	) throws(Defaults.PersistenceError) -> Replaced? {
		guard found.isAsWrittenAhead ? ahead?.replacement != nil : found.mustRewrite || merge.changesTheFile else {
			return nil
		}

		let start = DispatchTime.now()
		let version: FileVersion
		if found.isAsWrittenAhead, let ahead, let replacement = ahead.replacement {
			version = try file.replace(with: replacement, digest: ahead.digest)
			isAheadRenamed = true
		} else {
			version = try file.replace(with: merge.contents)
		}

		let duration = Duration.nanoseconds(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds + (ahead?.nanoseconds ?? 0))
		// What the file gained since Foundation last read it: this flush's changes, and others' (seen before, or now).
		// Before this process's first write, Foundation's copy may predate every value of the file.
		let inStep = try keepFoundationInStep(
			file,
			written: version,
			contents: merge.contents,
			writtenByTheLibrary: found.foundationMayPredateTheFile
				? Set(merge.contents.keys).union(merge.written)
				: merge.written.union(found.changedSinceBaseline).union(found.changedByOthers)
		)
		return Replaced(
			contents: inStep.contents ?? merge.contents,
			version: inStep.version,
			isChangedByFoundation: inStep.contents != nil,
			duration: duration,
			diagnostics: inStep.diagnostics
		)
	}

	/**
	Records what the file holds now: the pending changes written are cleared,
	and the file's contents, version and size are this process's knowledge of
	it. Returns the changes this process did not make (other processes',
	Foundation's, and the refused ones going back to the file's values).
	*/
	private func record(
		_ merge: SuiteFileMerge,
		found: FileUnderLock,
		replaced: Replaced?,
		pending: [(name: String, change: FlushPolicy.Change)]
	) -> [String: PropertyListValue?] {
		let final = replaced?.contents ?? merge.contents
		return state.withLock { state in
			state.flush.wrote(pending, taking: replaced?.duration)

			var external = externalChanges(found.changedByOthers.subtracting(merge.written), in: found.onDisk)
			if replaced?.isChangedByFoundation == true {
				external.merge(externalChanges(from: merge.contents, to: final, excluding: merge.written)) { _, later in later }
			}
			for name in merge.refused?.names ?? [] {
				// Back to the file's value, once no newer write of this process is pending.
				external[name] = .some(final[name])
			}
			state.lastKnown = KnownFileContents(final)
			state.lastKnownVersion = replaced?.version ?? found.version
			if replaced != nil {
				state.foundationMayPredateTheFile = false
				state.changedSinceBaseline = []
			} else {
				state.changedSinceBaseline.formUnion(found.changedByOthers)
			}
			// Written or found: what the file holds now, unless a newer write of this process is pending (the size counts that one).
			for (name, value) in external.merging(merge.committed, uniquingKeysWith: { _, committed in committed }) where state.flush.pending[name] == nil {
				state.size.record(name, value)
			}
			return external
		}
	}
}
