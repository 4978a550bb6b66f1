import Defaults
import Foundation

extension Defaults.Keys {
	static let recentEvents = Key<[String]>("recentEvents", default: [])
	static let counters = Key<[String: Int]>("counters", default: [:])
}

public func recordForever() -> Never {
	while true {
		Defaults[.recentEvents].append("tick")
		Defaults[.counters]["ticks", default: 0] += 1
		sleep(1)
	}
}
