import Defaults
import Foundation

/**
Raw `UserDefaults` writes made the way the interop terms say the library sees
them: `set` (or `removeObject`), then `synchronize()`. The library then sees
the change like another process's; the flush that follows brings it in at
once, where the file watcher would take a few milliseconds.
*/
extension UserDefaults {
	public func setRawAndSynchronize(_ value: Any, forKey name: String) {
		set(value, forKey: name)
		synchronize()
		try? Defaults.flush(suite: self)
	}

	public func removeRawAndSynchronize(forKey name: String) {
		removeObject(forKey: name)
		synchronize()
		try? Defaults.flush(suite: self)
	}
}
