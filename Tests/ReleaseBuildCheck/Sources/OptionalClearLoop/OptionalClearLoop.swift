import Defaults
import Foundation

extension Defaults.Keys {
	static let sessionToken = Key<String?>("sessionToken")
}

public func expireForever() -> Never {
	while true {
		Defaults[.sessionToken] = nil
		sleep(1)
		Defaults[.sessionToken] = UUID().uuidString
	}
}
