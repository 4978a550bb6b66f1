#if Postgres
import DefaultsTestSupport
import Foundation
import Testing

extension PostgresTests {
	/**
	Fleets of processes against the small cluster `scripts/postgres` starts (`max_connections = 25`, none reserved),
	so that processes that each connected on their own would exhaust it (issue 32).

	Every member is a real process with the store's default options (`DefaultsPostgresTestHelper member`); a
	"host" is a preferences folder. DEFAULTS_PG_FLEET_PROCESSES sets how many members the first two tests start (60).
	*/
	@Suite("Fleets on a server with few connections", .enabled(if: PostgresTestServer.isLimitedAvailable))
	struct Fleet {
		static let processes = TestEnvironment.count("DEFAULTS_PG_FLEET_PROCESSES", default: 60)

		@Test("N processes on one host, against a server with max_connections 25: every write reaches the table and every process, at most 2 connections")
		func oneHost() async throws {
			try await converge(processes: Self.processes, hosts: 1)
		}

		@Test("N processes over 10 hosts: every write reaches the table and every process, at most 2 connections per host, 20 in all")
		func tenHosts() async throws {
			try await converge(processes: Self.processes, hosts: 10)
		}

		/// Starts the fleet; each member's own write must reach the table, and a write of the test every member,
		/// within the issue's 60 s, while the members hold at most two connections per host.
		private func converge(processes: Int, hosts: Int) async throws {
			let fleet = try await PostgresFleet(hosts: hosts)
			defer { fleet.close() }
			try fleet.start(processes)
			let notReady = await fleet.waitForLine(from: fleet.members, timeout: .seconds(120)) { $0 == "ready" }
			try #require(notReady.isEmpty, "not ready after 120 s: \(fleet.describe(notReady)); \(fleet.peaks)")

			// Each member writes its own key once its first sync completed.
			let ownWrites = Dictionary(uniqueKeysWithValues: fleet.members.map { ($0.name, 1) })
			let unpublished = await fleet.waitUntilTableHolds(ownWrites)
			#expect(unpublished == nil, "the members' own writes did not all reach the table within 60 s: \(unpublished ?? ""); \(fleet.peaks)")

			let value = Int.random(in: 1_000...999_999)
			try await fleet.publishShared(value)
			let missed = await fleet.waitUntilEveryMemberSaw(value)
			#expect(missed.isEmpty, "a write did not reach every member within 60 s, missed by \(fleet.describe(missed)); \(fleet.peaks)")
			#expect(fleet.exited.isEmpty, "members ended on their own: \(fleet.describe(fleet.exited))")

			let peaks = await fleet.sampleConnections()
			try #require(peaks.samples > 0, "the members' connections were never counted: \(peaks)")
			let fleetSize = "\(processes) processes on \(hosts) hosts, max_connections \(PostgresTestServer.limitedMaximumConnections)"
			#expect(peaks.busiestHost <= 2, "\(fleetSize): \(peaks)")
			#expect(peaks.inAll <= 2 * hosts, "\(fleetSize): \(peaks)")
		}

		@Test("members killed one by one (kill -9): after each, a write still reaches every survivor, and a survivor's write the table")
		func takeover() async throws {
			let fleet = try await PostgresFleet(hosts: 1)
			defer { fleet.close() }
			try fleet.start(5)
			let notReady = await fleet.waitForLine(from: fleet.members, timeout: .seconds(120)) { $0 == "ready" }
			try #require(notReady.isEmpty, "not ready after 120 s: \(fleet.describe(notReady)); \(fleet.peaks)")
			var written = Dictionary(uniqueKeysWithValues: fleet.members.map { ($0.name, 1) })
			let unpublished = await fleet.waitUntilTableHolds(written)
			#expect(unpublished == nil, "the members' own writes did not all reach the table within 60 s: \(unpublished ?? ""); \(fleet.peaks)")

			for round in 1..<5 {
				// Whoever connects for the host is not visible from outside: any member may be the one killed.
				let victim = try #require(fleet.members.randomElement())
				fleet.kill(victim)

				let value = round * 1_000_000 + Int.random(in: 0..<1_000_000)
				try await fleet.publishShared(value)
				let missed = await fleet.waitUntilEveryMemberSaw(value)
				#expect(missed.isEmpty, "after \(victim.name) was killed (\(round) of 4), a write did not reach every survivor within 60 s, missed by \(fleet.describe(missed)); \(fleet.peaks)")

				// A survivor writes its key again (SIGUSR1): one more than it held.
				let writer = try #require(fleet.members.randomElement())
				let next = written[writer.name, default: 1] + 1
				written[writer.name] = next
				writer.process.send(SIGUSR1)
				let unpublished = await fleet.waitUntilTableHolds([writer.name: next])
				#expect(unpublished == nil, "after \(victim.name) was killed (\(round) of 4), \(writer.name)'s write did not reach the table within 60 s: \(unpublished ?? ""); \(fleet.peaks)")

				// The host is back to at most two connections once every survivor is served again.
				let peaks = await fleet.waitUntilMembersHold(atMost: 2)
				#expect(peaks.latestInAll <= 2 && !peaks.latestFailed, "after \(victim.name) was killed (\(round) of 4), the survivors still held \(peaks.latestInAll) connections after 60 s: \(peaks)")
			}

			#expect(fleet.exited.isEmpty, "members ended on their own: \(fleet.describe(fleet.exited))")
		}
	}
}
#endif
