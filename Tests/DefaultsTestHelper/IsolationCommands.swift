import Defaults
import DefaultsTesting
import Foundation

// The command of the test that isolated tests never reach the preferences folder.
//
//   isolated-writes   with keys declared as globals on the standard suite and on a named one (and one key first
//                     created inside), writes, resets, removes, migrates and flushes inside withIsolatedDefaults; prints
//                     "isolated V group NAME tags N" as read inside, then "outside V group NAME" as read after it, and
//                     exits normally (so the exit flush runs)

nonisolated(unsafe) private let groupSuite = UserDefaults(suiteName: "com.example.isolated-group")!

extension Defaults.Keys {
	fileprivate static let isolatedCount = Key<Int>("isolatedCount", default: 0)
	fileprivate static let isolatedGroupName = Key<String>("isolatedGroupName", default: "none", suite: groupSuite)
}

/// Created on first use, which is inside the isolation: keys bind their real suite even then.
private enum LazyKeys {
	static let tags = Defaults.Key<[String]>("isolatedTags", default: [], suite: UserDefaults(suiteName: "com.example.isolated-lazy")!)
}

func runIsolationCommand(_ arguments: [String]) {
	// Touched before the isolation starts, as an app's launch code would.
	_ = Defaults[.isolatedCount]
	_ = Defaults[.isolatedGroupName]

	let inside = withIsolatedDefaults {
		Defaults[.isolatedCount] = 41
		Defaults[.isolatedCount] += 1
		groupSuite[.isolatedGroupName] = "written"
		Defaults.reset(.isolatedGroupName)
		UserDefaults(suiteName: "com.example.isolated-group")![.isolatedGroupName] = "42"
		Defaults[LazyKeys.tags] = ["a"]
		UserDefaults(suiteName: "com.example.isolated-other")!.removeAll()
		_ = try? Defaults.migrate([Defaults.Migration(version: 1) { settings in settings.rename("old", to: "new") }], suite: groupSuite)
		_ = try? Defaults.exportSettings()
		try? Defaults.flush(suite: .standard)
		try? Defaults.flush(suite: groupSuite)
		return "isolated \(Defaults[.isolatedCount]) group \(Defaults[.isolatedGroupName]) tags \(Defaults[LazyKeys.tags].count)"
	}

	say(inside)
	say("outside \(Defaults[.isolatedCount]) group \(Defaults[.isolatedGroupName])")
}
