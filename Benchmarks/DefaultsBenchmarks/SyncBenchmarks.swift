import Defaults
import Foundation

/// One sync round with 1,000 synced keys through a shared-folder remote: publishing them, and another suite adopting them.
func syncBenchmarks() async throws -> [(String, Double)] {
	let keyCount = 1_000
	let folder = Benchmark.configFolder.appendingPathComponent("sync-remote-\(UUID().uuidString)")
	Defaults.iCloud.remote = try Defaults.SharedFolderRemoteStore(folder: folder, device: "benchmark")

	let writer = makeSuite("sync-writer", keyCount: 0)
	let written = (0..<keyCount).map { Defaults.Key<Int>("synced\($0)", default: 0, suite: writer, iCloud: true) }
	await Defaults.iCloud.waitForSyncCompletion()

	var start = nanoseconds()
	for (index, key) in written.enumerated() {
		writer[key] = index + 1
	}

	await Defaults.iCloud.waitForSyncCompletion()
	let publish = Double(nanoseconds() - start)

	// A suite that never wrote these keys adopts all of them.
	let reader = makeSuite("sync-reader", keyCount: 0)
	start = nanoseconds()
	let adopted = (0..<keyCount).map { Defaults.Key<Int>("synced\($0)", default: 0, suite: reader, iCloud: true) }
	await Defaults.iCloud.waitForSyncCompletion()
	let adopt = Double(nanoseconds() - start)
	consume(adopted.reduce(0) { $0 + reader[$1] })

	Defaults.iCloud.removeAll()
	return [
		("write 1k synced keys + publish round", publish),
		("declare 1k synced keys + adopt round", adopt),
	]
}
