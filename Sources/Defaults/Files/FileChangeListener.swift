import Foundation

/// Something that wants to know when a preferences file was written, by this or another process.
package protocol FileChangeListener: AnyObject, Sendable {
	/// The file listened to.
	var url: URL { get }

	/// Called on the watcher's thread after the file was replaced, written, created or deleted (or, when
	/// listened to with ``FileChangeWatcher/Hearing/attributes``, its or its folder's mode or owner changed).
	func fileDidChange()
}
