import Foundation
@testable import Defaults

/// The real file system, except that replacing a file fails (a full disk, a read-only folder).
struct FailingFileSystem: ForwardingFileSystem {
	let reason: String
	let real = POSIXFileSystem()

	func replaceAtomically(_ url: URL, with data: Data) throws(Defaults.PersistenceError) {
		throw .fileOperationFailed(operation: "write", path: url.path, reason: reason)
	}

	func remove(_ url: URL) throws(Defaults.PersistenceError) {
		throw .fileOperationFailed(operation: "delete", path: url.path, reason: reason)
	}
}
