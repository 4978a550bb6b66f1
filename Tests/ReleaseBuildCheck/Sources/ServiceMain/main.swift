import Defaults
import Foundation

extension Defaults.Keys {
	static let heartbeat = Key<Int>("heartbeat", default: 0)
}

func serve() -> Never {
	while true {
		Defaults[.heartbeat] += 1
		sleep(1)
	}
}

// Never run: the program only has to compile. Both loops are what a daemon's main.swift looks like.
if CommandLine.arguments.contains("--serve") {
	serve()
}

while true {
	Defaults[.heartbeat] += 1
	sleep(1)
}
