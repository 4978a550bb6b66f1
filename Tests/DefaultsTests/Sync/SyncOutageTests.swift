import DefaultsTestSupport
import DefaultsTesting
import Foundation
import Testing
@testable import Defaults

/// A remote that fails while `isDown`, otherwise the in-memory one.
private final class OutageRemoteStore: Defaults.RemoteStore {
	let backing = InMemoryRemoteStore()
	private let down = Locked<String?>(nil)
	var limits: Defaults.RemoteLimits { backing.limits }
	var deviceIdentity: String? { nil }

	struct Failure: Error, CustomStringConvertible {
		let description: String
	}

	func fail(because reason: String?) {
		down.withLock { $0 = reason }
	}

	private func check() throws {
		if let reason = down.withLock({ $0 }) {
			throw Failure(description: reason)
		}
	}

	func entries() async throws -> [String: Defaults.RemoteEntry] {
		try check()
		return try await backing.entries()
	}

	func publish(_ entries: [String: Defaults.RemoteEntry]) async throws {
		try check()
		try await backing.publish(entries)
	}

	func changes() -> AsyncStream<Set<String>> {
		backing.changes()
	}
}

@Suite("Sync: an outage is reported once per cause, not once per write")
struct SyncOutageTests {
	@Test("fifty writes to a remote that is down: one failure per operation and cause, then one recovery with the count")
	func outageIsReportedOnce() async throws {
		let remote = OutageRemoteStore()
		let device = SyncedDevice("outage", remote: remote)
		await device.settle()

		// Claimed by a token of this test's own, as tests in parallel report too.
		let token = UUID().uuidString
		let (_, reported) = await DiagnosticReporter.claimingAsync(where: { $0.message.contains(token) }) {
			remote.fail(because: "sorry, too many clients already \(token)")
			for round in 0..<50 {
				device.suite[device.key] = "value \(round)"
				await device.settle()
			}

			remote.fail(because: "connection refused \(token)")
			device.suite[device.key] = "after the cause changed"
			await device.settle()

			remote.fail(because: nil)
			device.suite[device.key] = "back"
			await device.settle()
		}

		let failures = reported.filter { $0.kind == .syncFailed }
		let publishing = failures.filter { $0.message.hasPrefix("publishing") }
		#expect(publishing.count == 2, "the outage, then its new cause: \(reported.map { "\($0.kind) \($0.message)" })")
		#expect(publishing.first?.message.contains("sorry, too many clients already") == true)
		#expect(publishing.last?.message.contains("connection refused") == true)
		#expect(failures.filter { $0.message.hasPrefix("reading") }.count <= 2)

		let recoveries = reported.filter { $0.kind == .syncRecovered }
		let publishingBack = try #require(recoveries.first { $0.message.hasPrefix("publishing") })
		let counted = try #require(publishingBack.message.firstMatch(of: /after (\d+) failures/).flatMap { Int($0.1) })
		#expect(counted >= 51, "every failed publish was counted: \(publishingBack.message)")
		#expect(recoveries.count <= 2)
		#expect(try await remote.backing.entries()["theme"]?.value == "back", "nothing was lost: the last value was published")
	}

	@Test("counting and reporting follow the operation and its cause")
	func reportsFollowTheCause() {
		var failures = SyncFailureReports()
		let start = ContinuousClock.now
		#expect(failures.succeeded(.publishing, at: start) == nil)
		#expect(failures.failed(.publishing, cause: "down", at: start) != nil)
		#expect(failures.failed(.publishing, cause: "down", at: start) == nil)
		#expect(failures.failed(.reading, cause: "down", at: start) != nil, "each operation has its own outage")
		#expect(failures.failed(.publishing, cause: "refused", at: start)?.contains("before: down") == true)
		let back = failures.succeeded(.publishing, at: start + .seconds(2))
		#expect(back == "publishing to the remote works again after 3 failures in 2.0 s (last cause: refused)")
		#expect(failures.succeeded(.publishing, at: start) == nil)
	}
}
