import Foundation
@testable import Defaults

/// A test file system that behaves like the real one except where it says otherwise: every requirement it does not implement goes to `real`.
protocol ForwardingFileSystem: PreferencesFileSystem {
	var real: POSIXFileSystem { get }
}

extension ForwardingFileSystem {
	func identity(of url: URL) -> FileIdentity? {
		real.identity(of: url)
	}

	func read(_ url: URL) throws(Defaults.PersistenceError) -> Data? {
		try real.read(url)
	}

	func replaceAtomically(_ url: URL, with data: Data) throws(Defaults.PersistenceError) {
		try real.replaceAtomically(url, with: data)
	}

	func remove(_ url: URL) throws(Defaults.PersistenceError) {
		try real.remove(url)
	}

	func moveAside(_ url: URL, suffix: String) throws(Defaults.PersistenceError) -> URL {
		try real.moveAside(url, suffix: suffix)
	}

	func removeAbandonedTemporaries(of url: URL) {
		real.removeAbandonedTemporaries(of: url)
	}

	func withExclusiveLock<Result>(
		for url: URL,
		waitingUntil deadline: ContinuousClock.Instant,
		_ body: () throws(Defaults.PersistenceError) -> Result
	) throws(Defaults.PersistenceError) -> Result {
		try real.withExclusiveLock(for: url, waitingUntil: deadline, body)
	}

	func removeLockFile(for url: URL) throws(Defaults.PersistenceError) {
		try real.removeLockFile(for: url)
	}
}
