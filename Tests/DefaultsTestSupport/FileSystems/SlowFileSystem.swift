import Defaults
import Foundation

/// The real file system, except that replacing a file takes `delay` longer: a very large suite.
package struct SlowFileSystem: ForwardingFileSystem {
	package let delay: TimeInterval
	package let started: DispatchSemaphore
	package let real = POSIXFileSystem()

	package init(delay: TimeInterval, started: DispatchSemaphore) {
		self.delay = delay
		self.started = started
	}

	package func replaceAtomically(_ url: URL, with data: Data, newFileMode: mode_t) throws(Defaults.PersistenceError) {
		started.signal()
		Thread.sleep(forTimeInterval: delay)
		try real.replaceAtomically(url, with: data, newFileMode: newFileMode)
	}

}
