import Defaults
import Foundation

/// The real file system, except that replacing a file fails (a full disk, a read-only folder).
package struct FailingFileSystem: ForwardingFileSystem {
	package let reason: String
	package let real = POSIXFileSystem()

	package init(reason: String) {
		self.reason = reason
	}

	package func replaceAtomically(_ url: URL, with data: Data, newFileMode: mode_t) throws(Defaults.PersistenceError) {
		throw .fileOperationFailed(operation: "write", path: url.path, reason: reason)
	}

	package func remove(_ url: URL) throws(Defaults.PersistenceError) {
		throw .fileOperationFailed(operation: "delete", path: url.path, reason: reason)
	}
}
