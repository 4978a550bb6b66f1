import Foundation

/**
Foundation's own `UserDefaults` keeps a copy of the suite and writes the
file in place when raw `UserDefaults` calls change it: after each write of
the file, the copy is made to read the file again.

Two fields of the file's state serve it: `changedSinceBaseline`, the keys
other processes changed since this process's last write of the file (when
Foundation last read it), as this process saw them, and
`foundationMayPredateTheFile`, true until that first write when the file
changed after this process started. A key the library or another process
wrote after Foundation's copy was made, and that Foundation then saved over,
was written twice in no known order: the library's value is kept.

Before the first write, Foundation's copy may have been loaded by a raw read
or write made before the library touched the suite, and other processes may
have written since; nothing tells which of its values are stale. If the file
changed after this process started, every value it holds counts as newer
than Foundation's copy (a raw write of a key the file holds is then
reported and the file's value kept; a raw write of a new key stays); if it
did not, Foundation's copy cannot be older than the file.
*/
extension SuiteFile {
	/**
	Brings Foundation's copy of the suite in step with the file just written,
	so raw `UserDefaults` reads see the library's writes; runs under the
	inter-process lock. Returns the file's contents when Foundation changed
	them, and the version the file is left at.

	`synchronize()` makes Foundation drop its copy, to read the file again on
	its next read. If this process wrote keys through raw `UserDefaults`
	without synchronizing them, Foundation first writes those keys into the
	file, in place. Such a raw write was made after this process's last write
	of the file (which synchronized Foundation), at a moment nobody knows.
	Where the library wrote the same key since then (this flush, an earlier
	one, or another process, under the lock), the two writes are unordered:
	the library's value, the one every process has seen, is written back and
	the revert reported. A raw write of a key nobody else wrote since is the
	newest value, and stays.
	*/
	func keepFoundationInStep(
		_ file: LockedReplace,
		written writtenVersion: FileVersion,
		contents writtenContents: [String: PropertyListValue],
		writtenByTheLibrary: Set<String>
	) throws(Defaults.PersistenceError) -> (contents: [String: PropertyListValue]?, version: FileVersion, diagnostics: [Defaults.Diagnostic]) {
		suite.defaults.synchronize()
		let identity = file.identity
		var data: Data?
		let isUnchanged = try writtenVersion.isCurrent(identity) { () throws(Defaults.PersistenceError) in
			data = try file.data()
			return data
		}
		if isUnchanged {
			return (nil, writtenVersion, [])
		}

		if data == nil {
			data = try file.data()
		}

		guard case .contents(var contents) = PropertyListFileContents.decode(data) else {
			return (nil, writtenVersion, [])
		}

		let reverted = PropertyListFileContents.changedKeys(from: writtenContents, to: contents).intersection(writtenByTheLibrary).sorted()
		guard !reverted.isEmpty else {
			return (contents, FileVersion(identity: identity, contents: data), [])
		}

		for name in reverted {
			contents[name] = writtenContents[name]
		}

		let version = try file.replace(with: contents)
		// Foundation has nothing unsaved left: this only makes it read the file again.
		suite.defaults.synchronize()
		let names = reverted.joined(separator: ", ")
		let diagnostic = Defaults.Diagnostic(
			kind: .restoredNewerValue,
			key: reverted.count == 1 ? reverted[0] : nil,
			message: "suite '\(domainName)': raw UserDefaults in this process saved \(names) (set without synchronize(), or read before another process wrote the file) over the value the library wrote under the suite's lock, here or in another process; the two writes are unordered, so the library's value, the one other processes have seen, was kept and written back"
		)
		return (contents, version, [diagnostic])
	}
}
