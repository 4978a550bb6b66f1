import Defaults
import Foundation

extension Defaults.Keys {
	static let requested = Key<String>("requested", default: "")
	static let served = Key<String>("served", default: "")
}

public func mirrorForever() async -> Never {
	while true {
		for await value in Defaults.updates(.requested) {
			Defaults[.served] = value
		}
	}
}
