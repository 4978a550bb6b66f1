import Defaults
import Foundation

extension Defaults.Keys {
	static let target = Key<Int>("target", default: 0)
	static let applied = Key<Int>("applied", default: 0)
}

public func followForever() -> Never {
	let observation = Defaults.observe(.target) { change in
		Defaults[.applied] = change.newValue
	}

	while true {
		Defaults[.target] += 1
		withExtendedLifetime(observation) {}
		sleep(1)
	}
}

public func observeEachRoundForever() -> Never {
	while true {
		let observation = Defaults.observe(keys: .target, .applied) {
			Defaults[.applied] += 1
		}
		Defaults[.target] += 1
		observation.invalidate()
		sleep(1)
	}
}
