import Foundation

/// A small, seeded generator: the same seed and trial index give the same input on every machine, so a failure names its input.
public struct FuzzRandom: RandomNumberGenerator {
	private var state: UInt64

	/// The generator of trial `index` of a run started with `seed`.
	public init(seed: UInt64, index: Int) {
		state = seed &+ UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15
		_ = next()
	}

	public mutating func next() -> UInt64 {
		state &+= 0x9E37_79B9_7F4A_7C15
		var mixed = state
		mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
		mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
		return mixed ^ (mixed >> 31)
	}

	public mutating func chance(_ probability: Double) -> Bool {
		Double.random(in: 0..<1, using: &self) < probability
	}

	public mutating func below(_ bound: Int) -> Int {
		bound <= 0 ? 0 : Int.random(in: 0..<bound, using: &self)
	}
}

/// How many trials a fuzz test runs, and with which seed: `DEFAULTS_FUZZ_TRIALS` and `DEFAULTS_FUZZ_SEED`.
public enum FuzzSettings {
	public static func trials(default defaultTrials: Int) -> Int {
		TestEnvironment.count("DEFAULTS_FUZZ_TRIALS", default: defaultTrials)
	}

	public static var seed: UInt64 {
		ProcessInfo.processInfo.environment["DEFAULTS_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x5EED_2026
	}
}
