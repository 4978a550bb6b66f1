import Foundation

/// Wall-clock nanoseconds from a monotonic clock.
func nanoseconds() -> UInt64 {
	DispatchTime.now().uptimeNanoseconds
}

/// Keeps the optimizer from removing the work being measured.
@inline(never)
func consume<T>(_ value: T) {
	withExtendedLifetime(value) {}
}

/// One line of the report: our cost next to a baseline's, measured in the same run.
struct Row {
	let operation: String
	let ours: Double
	let baselineName: String
	let baseline: Double
	let target: Target?

	enum Target {
		/// ours / baseline must not exceed the value.
		case atMost(Double)
		/// baseline / ours must reach the value (we are that many times faster).
		case fasterBy(Double)
		/// An absolute bound on ours, in nanoseconds.
		case absolute(nanoseconds: Double)
	}

	var ratio: Double {
		ours / baseline
	}

	var targetText: String {
		switch target {
		case nil:
			""
		case .atMost(let limit):
			"≤ \(format(limit))×"
		case .fasterBy(let factor):
			"≥ \(format(factor))× faster"
		case .absolute(let limit):
			"≤ \(Formatting.duration(limit))"
		}
	}

	var isMet: Bool? {
		switch target {
		case nil:
			nil
		case .atMost(let limit):
			ratio <= limit
		case .fasterBy(let factor):
			baseline / ours >= factor
		case .absolute(let limit):
			ours <= limit
		}
	}

	private func format(_ value: Double) -> String {
		String(format: value == value.rounded() ? "%.0f" : "%.1f", value)
	}
}

/// Times `ours` and `baseline` over `iterations` calls each, in alternating rounds; see ``compareMeasured``.
func compare(
	_ operation: String,
	iterations: Int,
	rounds: Int = 9,
	baselineName: String,
	target: Row.Target? = nil,
	ours: (Int) -> Void,
	baseline: (Int) -> Void
) -> Row {
	compareMeasured(operation, rounds: rounds, baselineName: baselineName, target: target) {
		time(iterations, ours)
	} baseline: {
		time(iterations, baseline)
	}
}

/**
Runs `ours` and `baseline`, which each return the nanoseconds one operation
took, in alternating rounds (so drift from the machine affects both alike),
and keeps the median of each.
*/
func compareMeasured(
	_ operation: String,
	rounds: Int,
	baselineName: String,
	target: Row.Target? = nil,
	ours: () -> Double,
	baseline: () -> Double
) -> Row {
	withoutActuallyEscaping(ours) { ours in
		withoutActuallyEscaping(baseline) { baseline in
			compareMeasured(operation, rounds: rounds, ours: ours, baselines: [Baseline(baselineName, target: target, measure: baseline)])[0]
		}
	}
}

/// A baseline measured in the same rounds as ours: its name, the target of its row, and one measurement.
struct Baseline {
	let name: String
	let target: Row.Target?
	let measure: () -> Double

	init(_ name: String, target: Row.Target? = nil, measure: @escaping () -> Double) {
		self.name = name
		self.target = target
		self.measure = measure
	}

	/// A baseline timed over `iterations` calls of `body`.
	init(_ name: String, target: Row.Target? = nil, iterations: Int, body: @escaping (Int) -> Void) {
		self.init(name, target: target) { time(iterations, body) }
	}
}

/**
Runs `ours` and every baseline, which each return the nanoseconds one
operation took, in rounds whose order rotates (ours first, then each baseline
first in turn), and returns one row per baseline: the median of ours next to
the median of that baseline, all from the same rounds. With one baseline, the
order simply alternates.
*/
func compareMeasured(_ operation: String, rounds: Int, ours: @escaping () -> Double, baselines: [Baseline]) -> [Row] {
	let participants = [ours] + baselines.map(\.measure)
	var times = Array(repeating: [Double](), count: participants.count)
	for round in 0..<rounds {
		for step in 0..<participants.count {
			let index = (round + step) % participants.count
			times[index].append(participants[index]())
		}
	}

	let oursMedian = median(times[0])
	return baselines.enumerated().map { offset, baseline in
		Row(operation: operation, ours: oursMedian, baselineName: baseline.name, baseline: median(times[offset + 1]), target: baseline.target)
	}
}

/// Nanoseconds per call of `body`, over `iterations` calls.
func time(_ iterations: Int, _ body: (Int) -> Void) -> Double {
	let start = nanoseconds()
	for index in 0..<iterations {
		body(index)
	}

	return Double(nanoseconds() - start) / Double(iterations)
}

func median(_ values: [Double]) -> Double {
	let sorted = values.sorted()
	return sorted[sorted.count / 2]
}

enum Formatting {
	static func duration(_ nanoseconds: Double) -> String {
		switch nanoseconds {
		case ..<1_000:
			String(format: "%.0f ns", nanoseconds)
		case ..<1_000_000:
			String(format: "%.2f µs", nanoseconds / 1_000)
		case ..<1_000_000_000:
			String(format: "%.2f ms", nanoseconds / 1_000_000)
		default:
			String(format: "%.2f s", nanoseconds / 1_000_000_000)
		}
	}

	static func bytes(_ count: Int) -> String {
		count >= 1 << 20 ? String(format: "%.1f MiB", Double(count) / Double(1 << 20)) : String(format: "%.1f KiB", Double(count) / 1024)
	}
}
