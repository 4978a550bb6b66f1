#if Postgres
import Defaults
import Foundation

/// Every measurement (or only the fleets' connections), for the shared folder and then PostgreSQL, printed as Markdown tables.
func measure(onlyConnections: Bool) async throws {
	let configFolder = URL(fileURLWithPath: ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"]!)
	let writes = Int(ProcessInfo.processInfo.environment["DEFAULTS_BENCHMARK_WRITES"] ?? "") ?? 300
	let run = UUID().uuidString.prefix(8)
	let stores: [(writer: StoreKind, observer: StoreKind)] = [
		(.sharedFolder(configFolder.appendingPathComponent("shared-\(run)"), device: "writer"), .sharedFolder(configFolder.appendingPathComponent("shared-\(run)"), device: "observer")),
		(.postgres(namespace: "benchmark-\(run)"), .postgres(namespace: "benchmark-\(run)")),
	]

	print("DefaultsPostgres benchmark, \(Date().formatted(.iso8601.year().month().day())), \(ProcessInfo.processInfo.activeProcessorCount) cores")
	guard !onlyConnections else {
		try await measureConnections(configFolder: configFolder)
		return
	}

	print("Write → observer: one process writes a synced key, another one's observer runs; \(writes) writes, one at a time.\n")
	print("| Remote store | Write → observer, median | p99 | Max | 1k keys: write + publish | 1k keys: declare + adopt |")
	print("|---|---:|---:|---:|---:|---:|")
	for (writer, observer) in stores {
		let latencies = try await writeToObserverLatencies(writer: writer, observer: observer, writes: writes, configFolder: configFolder)
		let (publish, adopt) = try await syncRound(writer.renamed("round-\(run)"), keyCount: 1_000)
		print("| \(writer.title) | \(milliseconds(percentile(latencies, 0.5))) | \(milliseconds(percentile(latencies, 0.99))) | \(milliseconds(latencies.max() ?? 0)) | \(milliseconds(publish / 1_000)) | \(milliseconds(adopt / 1_000)) |")
	}

	try await measureConnections(configFolder: configFolder)
}

/// Microseconds from each write in this process to the observer in another process running.
private func writeToObserverLatencies(writer: StoreKind, observer: StoreKind, writes: Int, configFolder: URL) async throws -> [Double] {
	let observerFolder = configFolder.appendingPathComponent("observer-\(writer.name)")
	let child = Child(["--observe", observer.name, observer.location], configFolder: observerFolder)
	try child.start()
	defer { child.stop() }
	guard child.waitForLine(timeout: 30, where: { $0 == "ready" }) != nil else {
		throw BenchmarkError("the observer process for \(writer.title) did not start")
	}

	Defaults.iCloud.remote = try writer.makeStore()
	let suite = UserDefaults(suiteName: "latency-writer-\(writer.name)")!
	let key = Defaults.Key<Int>("latency", default: 0, suite: suite, iCloud: true)
	await Defaults.iCloud.waitForSyncCompletion()

	var latencies: [Double] = []
	for value in 1...writes {
		let written = microseconds()
		Defaults[key] = value
		guard let line = child.waitForLine(timeout: 10, where: { $0.hasPrefix("change \(value) ") }) else {
			throw BenchmarkError("write \(value) never reached the observer through \(writer.title)")
		}

		latencies.append(Double(Int64(line.split(separator: " ")[2])! - written))
	}

	Defaults.iCloud.removeAll()
	return latencies
}

/// Nanoseconds to write 1,000 synced keys and publish them, then for a suite that never wrote them to adopt them all.
private func syncRound(_ store: StoreKind, keyCount: Int) async throws -> (publish: Double, adopt: Double) {
	Defaults.iCloud.remote = try store.makeStore()
	let writer = UserDefaults(suiteName: "round-writer-\(store.name)")!
	let written = (0..<keyCount).map { Defaults.Key<Int>("synced\($0)", default: 0, suite: writer, iCloud: true) }
	await Defaults.iCloud.waitForSyncCompletion()

	var start = DispatchTime.now().uptimeNanoseconds
	for (index, key) in written.enumerated() {
		writer[key] = index + 1
	}

	await Defaults.iCloud.waitForSyncCompletion()
	let publish = Double(DispatchTime.now().uptimeNanoseconds - start)

	let reader = UserDefaults(suiteName: "round-reader-\(store.name)")!
	start = DispatchTime.now().uptimeNanoseconds
	let adopted = (0..<keyCount).map { Defaults.Key<Int>("synced\($0)", default: 0, suite: reader, iCloud: true) }
	await Defaults.iCloud.waitForSyncCompletion()
	let adopt = Double(DispatchTime.now().uptimeNanoseconds - start)
	let sum = adopted.reduce(0) { $0 + reader[$1] }
	guard sum == keyCount * (keyCount + 1) / 2 else {
		throw BenchmarkError("the reader adopted the wrong values through \(store.title)")
	}

	Defaults.iCloud.removeAll()
	return (publish, adopt)
}

/// The observing device: prints "change NEW MICROSECONDS" from its observer.
func observe(store: StoreKind) async throws {
	Defaults.iCloud.remote = try store.makeStore()
	let suite = UserDefaults(suiteName: "latency-observer")!
	let key = Defaults.Key<Int>("latency", default: 0, suite: suite, iCloud: true)
	let observation = Defaults.observe(key, options: []) { change in
		say("change \(change.newValue) \(microseconds())")
	}
	await Defaults.iCloud.waitForSyncCompletion()
	say("ready")
	try await Task.sleep(for: .seconds(3_600))
	observation.invalidate()
}

private func percentile(_ values: [Double], _ fraction: Double) -> Double {
	let sorted = values.sorted()
	guard !sorted.isEmpty else {
		return 0
	}

	return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
}

/// Microseconds, printed as milliseconds.
private func milliseconds(_ microseconds: Double) -> String {
	String(format: "%.2f ms", microseconds / 1_000)
}

extension StoreKind {
	/// The same kind of store in a fresh place, for a measurement that must start empty.
	func renamed(_ suffix: String) -> StoreKind {
		switch self {
		case .sharedFolder(let folder, let device):
			.sharedFolder(folder.deletingLastPathComponent().appendingPathComponent(suffix), device: device)
		case .postgres(let namespace):
			.postgres(namespace: "\(namespace)-\(suffix)")
		}
	}
}
#endif
