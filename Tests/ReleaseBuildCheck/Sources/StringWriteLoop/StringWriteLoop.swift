import Defaults
import Foundation

extension Defaults.Keys {
	static let status = Key<String>("status", default: "starting")
}

public func reportForever() -> Never {
	while true {
		Defaults[.status] = "running"
		sleep(1)
	}
}
