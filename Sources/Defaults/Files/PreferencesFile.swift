import Foundation

/**
A preferences file read and edited as a whole, for tools such as `defaults`.

Every edit follows the same protocol as the library's own flushes
(``LockedReplace``): it takes the suite's inter-process lock, re-reads the
file, applies the edit, and replaces the file atomically as a binary
property list. Edits therefore merge
with concurrent writers instead of overwriting them, and every process that
has the suite open sees the change through its external-change watcher.

A file that does not parse is never rewritten: reading and editing it throw
``Defaults/PersistenceError/unreadableFile(path:)`` and leave it untouched.
*/
package struct PreferencesFile: Sendable {
	package let url: URL
	let fileSystem: any PreferencesFileSystem
	/// The permissions of the file when an edit creates it.
	let newFileMode: mode_t

	/**
	A file at an explicit location. A file an edit creates is private to the
	user, unless it is an administrator's (in a system configuration folder,
	see ``AdministratorFiles``): every user's programs must read that one.
	*/
	package init(url: URL) {
		self.init(url: url, fileSystem: POSIXFileSystem(), newFileMode: AdministratorFiles.isAdministratorFile(url) ? 0o644 : 0o600)
	}

	/// The file of the suite (domain) `name` in this process's preferences folder.
	package init(domain name: String) throws(Defaults.PersistenceError) {
		try PreferencesLocation.validate(suiteName: name)
		self.init(url: try PreferencesLocation.folder().appendingPathComponent("\(name).plist", isDirectory: false))
	}

	init(url: URL, fileSystem: any PreferencesFileSystem, newFileMode: mode_t = 0o600) {
		self.url = url
		self.fileSystem = fileSystem
		self.newFileMode = newFileMode
	}

	/// The names of the suites that have a file in this process's preferences folder, sorted.
	package static func domainNames() throws(Defaults.PersistenceError) -> [String] {
		let folder = try PreferencesLocation.folder()
		let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
		return names
			.filter { $0.hasSuffix(".plist") && !isSetAside($0) }
			.map { String($0.dropLast(".plist".count)) }
			.filter { (try? PreferencesLocation.validate(suiteName: $0)) != nil }
			.sorted()
	}

	/// A file an unreadable suite was moved to: `<suite>.unreadable-yyyyMMdd'T'HHmmss.SSS[-N].plist`.
	private static func isSetAside(_ fileName: String) -> Bool {
		fileName.wholeMatch(of: /.+\.unreadable-\d{8}T\d{6}\.\d{3}(-\d+)?\.plist/) != nil
	}

	/// The file's values, or `nil` when there is no file.
	package func read() throws(Defaults.PersistenceError) -> [String: PropertyListValue]? {
		try decode(fileSystem.read(url))
	}

	/**
	Edits the file under the suite's inter-process lock.

	`body` receives the current values (`nil`: there is no file) and may change
	them; setting them to `nil` deletes the file. The file is replaced only
	when the values changed.
	*/
	@discardableResult
	package func update<Value>(_ body: (inout [String: PropertyListValue]?) throws -> Value) throws -> Value {
		// The lock's closure may only throw persistence errors; the edit's own error is carried out as a result.
		try fileSystem.replacingContents(of: url) { file throws(Defaults.PersistenceError) -> Result<Value, any Error> in
			let original = try decode(file.data())
			var contents = original
			let result: Value
			do {
				result = try body(&contents)
			} catch {
				return .failure(error)
			}

			if contents != original {
				if let contents {
					try file.replace(with: contents, newFileMode: newFileMode)
				} else {
					try file.remove()
				}
			}

			return .success(result)
		}.get()
	}

	private func decode(_ data: Data?) throws(Defaults.PersistenceError) -> [String: PropertyListValue]? {
		switch PropertyListFileContents.decode(data) {
		case .missing:
			nil
		case .contents(let contents):
			contents
		case .unreadable, .tooLarge:
			throw .unreadableFile(path: url.path)
		}
	}
}
