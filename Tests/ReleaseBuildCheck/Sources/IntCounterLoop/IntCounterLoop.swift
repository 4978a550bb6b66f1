import Defaults
import Foundation

extension Defaults.Keys {
	static let beats = Key<Int>("beats", default: 0)
}

nonisolated(unsafe) let groupSuite = UserDefaults(suiteName: "com.example.release-build-check")!

public func countForever() -> Never {
	while true {
		Defaults[.beats] += 1
		sleep(1)
	}
}

public func countForeverInSuite() -> Never {
	while true {
		groupSuite[.beats] += 1
		sleep(1)
	}
}
