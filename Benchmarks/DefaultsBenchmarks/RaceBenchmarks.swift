import Defaults
import Foundation
import Synchronization

/**
A read on a thread that races a writer: while the measured thread reads a key,
another thread writes the same key of the same suite without pause. Ours is
timed against the floor under the same race (the locked dictionary, read by
one thread while another sets the same key) and against our read with nobody
writing, all in the same rounds. The note says how many writes the racing
thread made per 1,000 reads, so a run where the two threads did not overlap
(a busy machine) shows as one.
*/
func racingReadBenchmarks() -> (rows: [Row], note: String) {
	let suite = makeSuite("racing-reads")
	let int = Defaults.Key<Int>("int", default: 0, suite: suite)
	suite[int] = 42
	try? Defaults.flush(suite: suite)
	let floor = LockedDictionary(["int": 42, "string": "hello, world"])
	let iterations = 100_000
	var writesPerRead: (ours: [Double], floor: [Double]) = ([], [])

	let rows = compareMeasured(
		"read Int, racing a writer of the same key",
		rounds: 9,
		ours: {
			let race = whileRacing(iterations: iterations, write: { suite[int] = $0 }) { _ in
				consume(suite[int])
			}
			writesPerRead.ours.append(race.writesPerRead)
			return race.nanoseconds
		},
		baselines: [
			Baseline("floor: locked [String: Any] lookup, racing a set of the same key") {
				let race = whileRacing(iterations: iterations, write: { floor.set($0, for: "int") }) { _ in
					consume(floor["int"] as? Int ?? 0)
				}
				writesPerRead.floor.append(race.writesPerRead)
				return race.nanoseconds
			},
			Baseline("our read Int, nobody writing", iterations: iterations) { _ in
				consume(suite[int])
			},
		]
	)
	try? Defaults.flush(suite: suite)
	consume(floor.wasWritten)

	let note = String(
		format: "During the racing reads the writing thread made %.0f writes per 1,000 reads of ours and %.0f per 1,000 reads of the floor (medians).",
		median(writesPerRead.ours) * 1_000,
		median(writesPerRead.floor) * 1_000
	)
	return (rows, note)
}

/// Times `iterations` calls of `read` on this thread while another thread calls `write` without pause.
private func whileRacing(iterations: Int, write: @escaping (Int) -> Void, read: (Int) -> Void) -> (nanoseconds: Double, writesPerRead: Double) {
	let writer = RacingWriter(write: write)
	let writesBefore = writer.writes
	let nanoseconds = time(iterations, read)
	let writes = writer.writes - writesBefore
	writer.stop()
	return (nanoseconds, Double(writes) / Double(iterations))
}

/// A thread that calls `write` with 0, 1, 2, … until stopped; it has written once by the time `init` returns.
private final class RacingWriter: @unchecked Sendable {
	private let write: (Int) -> Void
	private let count = Atomic<Int>(0)
	private let isStopped = Atomic<Bool>(false)
	private let started = DispatchSemaphore(value: 0)
	private let finished = DispatchSemaphore(value: 0)

	init(write: @escaping (Int) -> Void) {
		self.write = write
		Thread { self.run() }.start()
		started.wait()
	}

	/// The writes made so far.
	var writes: Int {
		count.load(ordering: .relaxed)
	}

	func stop() {
		isStopped.store(true, ordering: .relaxed)
		finished.wait()
	}

	private func run() {
		var index = 0
		write(index)
		index += 1
		count.store(index, ordering: .relaxed)
		started.signal()
		while !isStopped.load(ordering: .relaxed) {
			write(index)
			index += 1
			count.store(index, ordering: .relaxed)
		}

		finished.signal()
	}
}
