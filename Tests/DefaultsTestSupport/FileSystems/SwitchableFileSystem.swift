import Defaults
import Foundation

/// The real file system, except that replacing a file fails while `failsWrites` is on.
package final class SwitchableFileSystem: ForwardingFileSystem {
	package let real = POSIXFileSystem()
	private let failing = Locked(false)

	package init() {}

	package var failsWrites: Bool {
		get { failing.withLock { $0 } }
		set { failing.withLock { $0 = newValue } }
	}

	package func replaceAtomically(_ url: URL, with data: Data, newFileMode: mode_t) throws(Defaults.PersistenceError) {
		guard !failsWrites else {
			throw .fileOperationFailed(operation: "write", path: url.path, reason: "writes are switched off by the test")
		}

		try real.replaceAtomically(url, with: data, newFileMode: newFileMode)
	}

}
