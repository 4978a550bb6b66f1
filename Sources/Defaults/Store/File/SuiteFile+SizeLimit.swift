import Foundation

/**
The ``FileLimits/maximumFileSize`` limit on writes: a suite file
larger than the library reads back would make every process start the suite
empty, so a write that would cross it is refused (before it changes
anything, or at the flush that would merge it with other processes' writes),
and the values stay as they were.
*/
extension SuiteFile {
	/**
	Refuses a write that would make the file larger than the library reads
	back (every process would then start the suite empty), before anything
	changes; called under the suite's values lock, before ``recordPending(_:value:)``.
	Cheap while the suite is well under the limit: the change's own size is
	measured, and the whole suite only near the limit.
	*/
	func refusal(ofSetting name: String, to value: PropertyListValue?) -> Defaults.Diagnostic? {
		let limit = FileLimits.maximumFileSize
		return state.withLock { state -> Defaults.Diagnostic? in
			let old = state.flush.pending[name].map(\.value) ?? state.lastKnown[name]
			let growth = Self.entrySize(name, value) - Self.entrySize(name, old)
			var estimate = state.sizeEstimate + growth
			if growth > 0, estimate > limit - limit / 8 {
				var prospective = state.lastKnown
				for (pendingName, change) in state.flush.pending {
					prospective[pendingName] = change.value
				}
				prospective[name] = value
				estimate = SuiteFileContents.encodedSize(prospective)
				guard estimate <= limit else {
					return Defaults.Diagnostic(
						kind: .fileSizeLimitExceeded,
						key: name,
						message: "suite '\(domainName)': writing '\(name)' would make \(url.path) \(estimate) bytes, more than the \(limit / 1024 / 1024) MiB the library reads back; the write was refused, and the value stays as it was"
					)
				}
			}

			state.sizeEstimate = estimate
			return nil
		}
	}

	/**
	Refuses this flush's changes when, merged with what other processes wrote,
	they would make a file larger than the library reads back: the file stays
	as it is, and the values go back to the file's. Returns the names refused.
	*/
	func refuseTooLarge(
		_ pending: [(name: String, change: FlushPolicy.Change)],
		contents: inout [String: PropertyListValue],
		onDisk: [String: PropertyListValue],
		diagnostics: inout [Defaults.Diagnostic]
	) -> [String] {
		let size = SuiteFileContents.encodedSize(contents)
		let refused = pending.map(\.name).filter { contents[$0] != onDisk[$0] }.sorted()
		for name in refused {
			contents[name] = onDisk[name]
		}

		let limit = FileLimits.maximumFileSize
		diagnostics.append(Defaults.Diagnostic(
			kind: .fileSizeLimitExceeded,
			key: refused.count == 1 ? refused[0] : nil,
			message: "suite '\(domainName)': writing \(refused.joined(separator: ", ")) with what other processes stored would make \(url.path) \(size) bytes, more than the \(limit / 1024 / 1024) MiB the library reads back; the changes were refused, and the values are the file's again"
		))
		return refused
	}

	/// About what one entry adds to the file (a bound: the whole suite is measured exactly near the limit).
	private static func entrySize(_ name: String, _ value: PropertyListValue?) -> Int64 {
		guard let value else {
			return 0
		}

		return Int64(BinaryPropertyListWriter.entrySizeBound(name: name, value: value))
	}
}
