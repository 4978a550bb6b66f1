import Foundation

extension Defaults {
	/**
	Why a suite could not be made durable.

	```swift
	do {
		try Defaults.flush(suite: UserDefaults(suiteName: "group.com.example.app")!)
	} catch {
		print(error) // for example: suite name '../x' would escape the preferences folder
	}
	```
	*/
	public enum PersistenceError: Error, Equatable, CustomStringConvertible {
		/// The suite name is empty, contains `/`, or is `.`/`..` (its file would not stay in the preferences folder), or is so long that the lock and temporary files named after it could not be created (over 198 bytes).
		case invalidSuiteName(String)

		/// Neither `XDG_CONFIG_HOME` (absolute) nor `HOME` is set, so there is no preferences folder.
		case noPreferencesFolder

		/// The variable that locates the preferences folder (`HOME`) holds a relative path, which would put the files below whatever the working directory is.
		case relativePreferencesFolder(variable: String, path: String)

		/// The suite's name cannot be determined, so its file cannot be found.
		case unknownSuite

		/// A file operation failed; `path` is the file or folder, `reason` the system's explanation.
		case fileOperationFailed(operation: String, path: String, reason: String)

		/// The file exists but is not a property-list dictionary (empty, truncated, or another format).
		case unreadableFile(path: String)

		/// The path holds a FIFO, socket, device or folder: the library opens regular files only, so it never blocks on one.
		case notARegularFile(path: String)

		/// The path is a symbolic link the library cannot write through: `reason` says why (it points into a folder that does not exist, or is a loop). A suite file that links to a writable file is written through: the target is replaced and the link stays.
		case symbolicLink(path: String, reason: String)

		/// The file is larger than a preferences file may be (64 MiB, `limit` bytes): it was not read, so memory stays bounded.
		case fileTooLarge(path: String, size: Int64, limit: Int64)

		/// The change would make the file `size` bytes, more than the `limit` (64 MiB) the library reads back: it was refused, and the file and the values stay as they were.
		case fileWouldBeTooLarge(path: String, size: Int64, limit: Int64)

		/// A commit (an import, a migration) would make the suite `size` bytes, or the value of `key` that large, more than its size `budget` (``Defaults/SizeBudget``): nothing of it was written.
		case sizeBudgetExceeded(key: String?, size: Int64, budget: Int64)

		/// The suite's lock (at `path`) stayed busy longer than the library waits, held by another process or by a slow flush of this one; the changes stay in memory and are retried. When `path` is the suite's migration lock (`.NAME.plist.migration.lock`), migrations of the suite held it.
		case lockTimedOut(path: String, seconds: Double)

		public var description: String {
			switch self {
			case .invalidSuiteName(let name):
				if let problem = PreferencesLocation.lengthProblem(of: name) {
					"suite name '\(name)' \(problem)"
				} else {
					"suite name '\(name)' would escape the preferences folder: use a name without '/' that is not empty, '.' or '..'"
				}
			case .noPreferencesFolder:
				"no preferences folder: set HOME or an absolute XDG_CONFIG_HOME (refusing to write to /.config)"
			case .relativePreferencesFolder(let variable, let path):
				"no preferences folder: \(variable) is the relative path '\(path)', which would put preferences below the working directory; set it, or XDG_CONFIG_HOME, to an absolute path"
			case .unknownSuite:
				"the suite's name cannot be determined; create it with UserDefaults(suiteName:) or Defaults.suite(named:)"
			case .fileOperationFailed(let operation, let path, let reason):
				"could not \(operation) \(path): \(reason)"
			case .unreadableFile(let path):
				"\(path) is not a readable property list; it was left as it is"
			case .notARegularFile(let path):
				"\(path) is not a regular file (a FIFO, socket, device or folder); it was not opened and was left as it is"
			case .symbolicLink(let path, let reason):
				"\(path) is a symbolic link that \(reason); it was left as it is"
			case .fileTooLarge(let path, let size, let limit):
				"\(path) is \(size) bytes, more than the \(limit / 1024 / 1024) MiB a preferences file may have; it was not read"
			case .fileWouldBeTooLarge(let path, let size, let limit):
				"the change would make \(path) \(size) bytes, more than the \(limit / 1024 / 1024) MiB a preferences file may have (no process would read it back); it was refused, and the file and the values stay as they were"
			case .sizeBudgetExceeded(let key?, let size, let budget):
				"'\(key)' would be \(size) bytes, more than the size budget of \(budget) bytes; nothing was written"
			case .sizeBudgetExceeded(nil, let size, let budget):
				"the suite would be \(size) bytes, more than its size budget of \(budget) bytes; nothing was written"
			case .lockTimedOut(let path, let seconds) where SideFileNames.isMigrationLock(path):
				"a migration of this suite, by this process or another, held its migration lock \(path) for more than \(seconds) s (migrations still running, a stopped process, a debugger?)"
			case .lockTimedOut(let path, let seconds):
				"the lock \(path) stayed busy for more than \(seconds) s: a flush of this suite, by this process or another, held it that long (a very large suite, a stopped process, a debugger?)"
			}
		}
	}
}
