#if Postgres
import Foundation

/// A private folder for a relay's files, as the relay makes its own, removed after the test: the rules' tests need no server.
final class TemporaryRelayFolder {
	let url = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-relay-rules-\(UUID().uuidString)")

	init() throws {
		try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
	}

	deinit {
		try? FileManager.default.removeItem(at: url)
	}
}
#endif
