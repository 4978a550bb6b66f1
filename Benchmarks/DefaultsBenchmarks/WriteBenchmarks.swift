import Defaults
import Foundation

/**
Writes including durability: each of our runs ends with `Defaults.flush`, so
the file writes the library makes (coalesced in the background) are paid for
inside the measured time. Raw `set` persists nothing on Linux.
*/
func writeBenchmarks() -> [Row] {
	let iterations = 2_000
	let ours = makeSuite("writes-ours")
	let raw = makeSuite("writes-raw")
	let int = Defaults.Key<Int>("int", default: 0, suite: ours)
	let string = Defaults.Key<String>("string", default: "", suite: ours)
	let strings = Defaults.Key<[String]>("strings", default: [], suite: ours)
	let window = Defaults.Key<Window>("window", default: Window(width: 0, height: 0, title: ""), suite: ours)
	let optional = Defaults.Key<Int?>("optional", suite: ours)

	func durable(_ body: @escaping (Int) -> Void) -> (Int) -> Void {
		{ index in
			body(index)
			if index == iterations - 1 {
				try? Defaults.flush(suite: ours)
			}
		}
	}

	return [
		compare("write Int", iterations: iterations, baselineName: "raw set", target: .atMost(1.5), ours: durable { ours[int] = $0 }) {
			raw.set($0, forKey: "int")
		},
		compare("write String", iterations: iterations, baselineName: "raw set", target: .atMost(1.5), ours: durable { ours[string] = "value \($0)" }) {
			raw.set("value \($0)", forKey: "string")
		},
		compare("write [String]", iterations: iterations, baselineName: "raw set", target: .atMost(1.5), ours: durable { ours[strings] = ["a", "b", "\($0)"] }) {
			raw.set(["a", "b", "\($0)"], forKey: "strings")
		},
		compare("write Codable struct", iterations: iterations, baselineName: "JSONEncoder + raw set", target: .atMost(1.5), ours: durable {
			ours[window] = Window(width: $0, height: 600, title: "Main")
		}) {
			let data = try! jsonEncoder.encode(Window(width: $0, height: 600, title: "Main"))
			raw.set(String(decoding: data, as: UTF8.self), forKey: "window")
		},
		compare("write Optional (nil)", iterations: iterations, baselineName: "raw removeObject", target: .atMost(1.5), ours: durable { _ in ours[optional] = nil }) { _ in
			raw.removeObject(forKey: "optional")
		},
	]
}
