import Defaults
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/**
The suite file: encoding and decoding it, and flushing a one-key change into
it, at 1 MB and 20 MB (mostly `Data`) and at 10,000 small values. The
baseline is what the library did before it had a property-list writer and
reader of its own: Foundation's `PropertyListSerialization`, and a flush that
encodes with it and replaces the file (synced) while holding the suite's lock.
*/
func fileBenchmarks() throws -> [Row] {
	let shapes: [(name: String, contents: [String: PropertyListValue], rounds: Int)] = [
		("1 MB of Data", dataHeavySuite(megabytes: 1), 5),
		("20 MB of Data", dataHeavySuite(megabytes: 20), 3),
		("10k small values", smallValuesSuite(count: 10_000), 5),
	]

	var rows: [Row] = []
	for shape in shapes {
		let foundationFile = try foundationEncode(shape.contents)
		rows.append(compareMeasured("encode, \(shape.name)", rounds: shape.rounds, baselineName: "Foundation's encoder", target: shape.name.hasPrefix("10k") ? .fasterBy(10) : .fasterBy(100)) {
			timed { consume(try! PropertyListFileContents.encode(shape.contents, for: "benchmark")) }
		} baseline: {
			timed { consume(try! foundationEncode(shape.contents)) }
		})
		if shape.name.hasPrefix("20") {
			rows.append(Row(operation: "encode, 20 MB of Data", ours: rows.last!.ours, baselineName: "the goal", baseline: 50e6, target: .absolute(nanoseconds: 50e6)))
		}

		rows.append(compareMeasured("decode, \(shape.name)", rounds: shape.rounds, baselineName: "Foundation's reader", target: nil) {
			timed { consume(PropertyListFileContents.decode(foundationFile)) }
		} baseline: {
			timed { consume(PropertyListValue(try! PropertyListSerialization.propertyList(from: foundationFile, format: nil))) }
		})
	}

	for shape in shapes {
		rows += try flushRows(shape.name, contents: shape.contents, rounds: shape.rounds)
	}

	return rows
}

/// A one-key change flushed into a suite of `contents`; the lock's hold measured by another thread that polls it.
private func flushRows(_ name: String, contents: [String: PropertyListValue], rounds: Int) throws -> [Row] {
	let suiteName = "defaults-benchmarks.flush.\(UUID().uuidString)"
	let file = suiteFile(named: suiteName)
	try PropertyListFileContents.encode(contents, for: file.path).write(to: file)
	let suite = UserDefaults(suiteName: suiteName)!
	let probe = Defaults.Key<Int>("probe", default: 0, suite: suite)
	suite[probe] = -1
	try Defaults.flush(suite: suite)

	let baselineName = "\(suiteName).baseline"
	let baselineFile = suiteFile(named: baselineName)
	var baselineContents = contents
	var round = 0
	var holds: (ours: [Double], baseline: [Double]) = ([], [])
	let flush = compareMeasured("flush a one-key change, \(name)", rounds: rounds, baselineName: "Foundation's encoder, replace under the lock", target: name.hasPrefix("20") ? .absolute(nanoseconds: 250e6) : nil) {
		round += 1
		suite[probe] = round
		let (time, hold) = measuringLockHold(of: file) { try! Defaults.flush(suite: suite) }
		holds.ours.append(hold)
		return time
	} baseline: {
		round += 1
		baselineContents["probe"] = .integer(round)
		let (time, hold) = measuringLockHold(of: baselineFile) {
			withSuiteLock(baselineFile) {
				try! POSIXFileSystem().replaceAtomically(baselineFile, with: foundationEncode(baselineContents), newFileMode: 0o600)
			}
		}
		holds.baseline.append(hold)
		return time
	}

	try? FileManager.default.removeItem(at: file)
	try? FileManager.default.removeItem(at: baselineFile)
	return [
		flush,
		Row(operation: "suite lock held by that flush, \(name)", ours: median(holds.ours), baselineName: "Foundation's encoder, replace under the lock", baseline: median(holds.baseline), target: nil),
	]
}

/// `megabytes` of `Data` values of 1 MB at most, and 50 small values.
private func dataHeavySuite(megabytes: Int) -> [String: PropertyListValue] {
	var contents = smallValuesSuite(count: 50)
	let blob = min(megabytes, 1) << 20
	for index in 0..<(megabytes << 20) / blob {
		contents["blob\(index)"] = .data(Data((0..<blob).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }))
	}

	return contents
}

/// Ints, strings, doubles and booleans, as a settings suite holds.
private func smallValuesSuite(count: Int) -> [String: PropertyListValue] {
	Dictionary(uniqueKeysWithValues: (0..<count).map { index in
		let value: PropertyListValue = switch index % 4 {
		case 0: .integer(index)
		case 1: .string("value number \(index)")
		case 2: .double(Double(index) / 7)
		default: .bool(index.isMultiple(of: 3))
		}
		return ("setting\(index)", value)
	})
}

/// The library's encoding before its own writer.
private func foundationEncode(_ contents: [String: PropertyListValue]) throws -> Data {
	try PropertyListSerialization.data(fromPropertyList: contents.mapValues(\.object), format: .binary, options: 0)
}

private func timed(_ body: () -> Void) -> Double {
	let start = nanoseconds()
	body()
	return Double(nanoseconds() - start)
}

/// Holds the suite file's inter-process lock (`.NAME.plist.lock`) around `body`, as the library's flush did.
private func withSuiteLock(_ file: URL, _ body: () -> Void) {
	let descriptor = open(lockFile(of: file).path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
	defer { close(descriptor) }
	flock(descriptor, LOCK_EX)
	body()
	flock(descriptor, LOCK_UN)
}

private func lockFile(of file: URL) -> URL {
	file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).lock")
}

/**
Runs `body` while another thread polls the suite's lock every 50 µs (taking
and releasing it at once); returns how long `body` took and the longest
stretch the lock stayed taken.
*/
private func measuringLockHold(of file: URL, _ body: () -> Void) -> (nanoseconds: Double, hold: Double) {
	let descriptor = open(lockFile(of: file).path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
	defer { close(descriptor) }
	let running = Locked(true)
	let longest = Locked<UInt64>(0)
	let done = DispatchSemaphore(value: 0)
	Thread {
		var busySince: UInt64?
		// Until the body has returned and the lock was seen free after it.
		while true {
			let isRunning = running.withLock { $0 }
			let now = nanoseconds()
			if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
				flock(descriptor, LOCK_UN)
				if let since = busySince {
					longest.withLock { $0 = max($0, now - since) }
					busySince = nil
				}

				if !isRunning {
					break
				}
			} else if busySince == nil {
				busySince = now
			}

			usleep(50)
		}

		done.signal()
	}.start()
	let time = timed(body)
	running.withLock { $0 = false }
	done.wait()
	return (time, Double(longest.withLock { $0 }))
}
