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

extension TestSuite {
	/// The suite file's contents as a dictionary, or `nil` when there is no file or it does not parse.
	func fileContents() -> [String: Any]? {
		guard let data = FileManager.default.contents(atPath: fileURL.path) else {
			return nil
		}

		return try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
	}

	/// Waits up to `timeout` for `condition`, checking every few milliseconds.
	func wait(timeout: TimeInterval, until condition: () -> Bool) -> Bool {
		let deadline = Date().addingTimeInterval(timeout)
		while Date() < deadline {
			if condition() {
				return true
			}

			Thread.sleep(forTimeInterval: 0.005)
		}

		return condition()
	}
}
