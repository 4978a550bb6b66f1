import Defaults
import Foundation

/// A test file system that behaves like the real one except where it says otherwise: every requirement it does not implement goes to `real`.
package protocol ForwardingFileSystem: PreferencesFileSystem {
	var real: POSIXFileSystem { get }
}

extension ForwardingFileSystem {
	package func identity(of url: URL) -> FileIdentity? {
		real.identity(of: url)
	}

	package func read(_ url: URL) throws(Defaults.PersistenceError) -> Data? {
		try real.read(url)
	}

	package func replaceAtomically(_ url: URL, with data: Data, newFileMode: mode_t) throws(Defaults.PersistenceError) {
		try real.replaceAtomically(url, with: data, newFileMode: newFileMode)
	}

	package func remove(_ url: URL) throws(Defaults.PersistenceError) {
		try real.remove(url)
	}

	package func moveAside(_ url: URL, suffix: String) throws(Defaults.PersistenceError) -> URL {
		try real.moveAside(url, suffix: suffix)
	}

	package func removeAbandonedTemporaries(of url: URL) {
		real.removeAbandonedTemporaries(of: url)
	}

	package func withExclusiveLock<Result>(
		for url: URL,
		waitingUntil deadline: ContinuousClock.Instant,
		_ body: () throws(Defaults.PersistenceError) -> Result
	) throws(Defaults.PersistenceError) -> Result {
		try real.withExclusiveLock(for: url, waitingUntil: deadline, body)
	}

	package func removeLockFile(for url: URL) throws(Defaults.PersistenceError) {
		try real.removeLockFile(for: url)
	}
}
