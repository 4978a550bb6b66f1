import Defaults
import Foundation

struct Checkpoint: Codable, Defaults.Serializable {
	var sequence: Int
	var note: String
}

extension Defaults.Keys {
	static let checkpoint = Key<Checkpoint>("checkpoint", default: Checkpoint(sequence: 0, note: ""))
}

public func checkpointForever() -> Never {
	var sequence = 0
	while true {
		sequence += 1
		Defaults[.checkpoint] = Checkpoint(sequence: sequence, note: "ok")
		Defaults[.checkpoint].sequence += 1
		sleep(1)
	}
}
