#if Postgres
import DefaultsTestSupport
import Foundation
import Testing

extension PostgresTests {
	/**
	A host's processes stopped with SIGSTOP (as Ctrl-Z, a debugger or a frozen cgroup stops them) while every one of
	them writes (`DefaultsPostgresTestHelper member` with `DEFAULTS_PG_MEMBER_BUSY_MS`): the others' writes reach the
	table and each other within ``bound``, and after SIGCONT nothing is lost or reverted (issue 39, items 1 and 2).

	DEFAULTS_PG_STOP_TRIALS sets how many processes the second test stops, one after the other (3).
	*/
	@Suite("A stopped process blocks no other's sync", .enabled(if: PostgresTestServer.isLimitedAvailable))
	struct StoppedProcess {
		static let trials = TestEnvironment.count("DEFAULTS_PG_STOP_TRIALS", default: 3)
		/// A stopped leader is taken over after 2 s without a beat, seen within an election (1 s) or a waiting
		/// publication's look (0.2 s); then the successor connects, publishes the outbox and reads. Debug build, 2 shared cores.
		static let bound = Duration.seconds(8)
		/// A write every 100 ms in each process: a busier writer outruns its own sync engine (each write queues a publication, and
		/// the pulls wait behind them), which no relay can hide.
		static let busy = ["DEFAULTS_PG_MEMBER_BUSY_MS": "100"]

		@Test("the leader stopped while the others write: their writes reach the table and each other within the bound, and after SIGCONT nothing is lost or reverted")
		func stoppedLeader() async throws {
			let fleet = try await PostgresFleet(hosts: 1, lifetime: 120)
			defer { fleet.close() }
			var written = try await start(fleet, members: 4)
			let leader = try #require(await eventually(timeout: .seconds(10)) { fleet.leader(ofHost: 0) != nil } ? fleet.leader(ofHost: 0) : nil, "no member named as the host's leader")
			let others = fleet.members.filter { $0.name != leader.name }

			leader.process.send(SIGSTOP)
			let stopped = ContinuousClock.now
			defer { leader.process.send(SIGCONT) }
			for member in others {
				write(member, in: &written)
			}
			let value = Int.random(in: 1_000...999_999)
			try await fleet.publishShared(value)

			let unpublished = await fleet.waitUntilTableHolds(written.filter { $0.key != leader.name }, timeout: Self.bound)
			let published = ContinuousClock.now - stopped
			#expect(unpublished == nil, "with the leader stopped, the others' writes did not reach the table within \(Self.bound): \(unpublished ?? "")")
			let missed = await fleet.waitForLine(from: others, timeout: Self.bound - published) { $0 == "saw \(value)" }
			let received = ContinuousClock.now - stopped
			#expect(missed.isEmpty, "with the leader stopped, a write did not reach \(fleet.describe(missed)) within \(Self.bound)")
			print("stopped leader: the others' writes in the table after \(published), a write of another host in every other process after \(received)")

			// SIGCONT: the old leader steps down and follows; its write lands, every process hears the next write, nothing went back.
			leader.process.send(SIGCONT)
			try await Task.sleep(for: .milliseconds(500))
			write(leader, in: &written)
			let next = value + 1
			try await fleet.publishShared(next)
			#expect(await fleet.waitUntilTableHolds(written, timeout: Self.bound) == nil, "after SIGCONT, the resumed leader's write or another did not reach the table")
			#expect(await fleet.waitUntilEveryMemberSaw(next, timeout: Self.bound).isEmpty, "after SIGCONT, a write did not reach every process")
			try await Task.sleep(for: .seconds(1))
			#expect(await fleet.waitUntilTableHolds(written, timeout: .zero) == nil, "a write was reverted after SIGCONT")
			#expect(fleet.exited.isEmpty, "members ended on their own: \(fleet.describe(fleet.exited))")
		}

		@Test("processes stopped at random points (the leader or not, mid-publication or not): the others' writes reach the table and each other within the bound, nothing lost or reverted after SIGCONT")
		func stoppedAtRandomPoints() async throws {
			let fleet = try await PostgresFleet(hosts: 1, lifetime: 120)
			defer { fleet.close() }
			var written = try await start(fleet, members: 4)
			var slowest = Duration.zero
			for trial in 1...Self.trials {
				let victim = try #require(fleet.members.randomElement())
				let wasLeader = fleet.leader(ofHost: 0)?.name == victim.name
				// Mid-publication often: it was just asked for one more write, and writes every 100 ms besides.
				victim.process.send(SIGUSR1)
				written[victim.name, default: 1] += 1
				try await Task.sleep(for: .microseconds(Int.random(in: 0...20_000)))
				victim.process.send(SIGSTOP)
				let stopped = ContinuousClock.now
				let others = fleet.members.filter { $0.name != victim.name }
				for member in others.shuffled().prefix(2) {
					write(member, in: &written)
				}
				let value = trial * 1_000_000 + Int.random(in: 0..<1_000_000)
				try await fleet.publishShared(value)

				let unpublished = await fleet.waitUntilTableHolds(written.filter { $0.key != victim.name }, timeout: Self.bound)
				let missed = await fleet.waitForLine(from: others, timeout: Self.bound) { $0 == "saw \(value)" }
				let took = ContinuousClock.now - stopped
				slowest = max(slowest, took)
				let who = "\(victim.name) stopped (\(wasLeader ? "the leader" : "a follower"), trial \(trial) of \(Self.trials))"
				#expect(unpublished == nil, "\(who): the others' writes did not reach the table within \(Self.bound): \(unpublished ?? "")")
				#expect(missed.isEmpty, "\(who): a write did not reach \(fleet.describe(missed)) within \(Self.bound); their last lines: \(missed.map { $0.process.receivedLines.suffix(3) })")

				victim.process.send(SIGCONT)
				#expect(await fleet.waitUntilTableHolds(written, timeout: Self.bound) == nil, "\(who): after SIGCONT, its write did not reach the table, or another was reverted")
				#expect(await fleet.waitUntilEveryMemberSaw(value, timeout: Self.bound).isEmpty, "\(who): after SIGCONT, it did not hear what was written meanwhile")
			}

			try await Task.sleep(for: .seconds(1))
			#expect(await fleet.waitUntilTableHolds(written, timeout: .zero) == nil, "a write was reverted")
			#expect(fleet.exited.isEmpty, "members ended on their own: \(fleet.describe(fleet.exited))")
			print("stopped at random points: \(Self.trials) trials, the others' writes in the table and in every other process within \(slowest) at worst")
		}

		@Test("a process stopped while it holds a lock of any relay file (every one but the leader's) holds up no other's writes")
		func stoppedHolderOfRelayLocks() async throws {
			let fleet = try await PostgresFleet(hosts: 1, lifetime: 120)
			defer { fleet.close() }
			var written = try await start(fleet, members: 3)
			// As a process stopped in the middle of a publication would: every file of the relay folder locked, and never unlocked.
			let relayFiles = try #require(fleet.relayFolder(ofHost: 0).map { folder in
				((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0 != "leader.lock" }.map { folder.appendingPathComponent($0).path }
			})
			var held: [Int32] = []
			defer { held.forEach { close($0) } }
			for path in relayFiles {
				let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
				if descriptor >= 0, flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
					held.append(descriptor)
				}
			}

			let started = ContinuousClock.now
			for member in fleet.members {
				write(member, in: &written)
			}
			let unpublished = await fleet.waitUntilTableHolds(written, timeout: Self.bound)
			#expect(unpublished == nil, "with \(held.count) relay files locked (\(relayFiles.map { URL(fileURLWithPath: $0).lastPathComponent })), the writes did not reach the table within \(Self.bound): \(unpublished ?? "")")
			print("relay files locked by a stopped process (\(held.count)): the writes in the table after \(ContinuousClock.now - started)")
		}

		/// Starts `members` busy members on one host, and waits until each one's first write is in the table; what each wrote.
		private func start(_ fleet: PostgresFleet, members: Int) async throws -> [String: Int] {
			// Each its own suite: processes that share a suite file also share its lock, which is not the relay's (see the Services article).
			fleet.suitePerMember = true
			try fleet.start(members, environment: Self.busy)
			let notReady = await fleet.waitForLine(from: fleet.members, timeout: .seconds(60)) { $0 == "ready" }
			try #require(notReady.isEmpty, "not ready after 60 s: \(fleet.describe(notReady))")
			let written = Dictionary(uniqueKeysWithValues: fleet.members.map { ($0.name, 1) })
			let unpublished = await fleet.waitUntilTableHolds(written, timeout: .seconds(30))
			try #require(unpublished == nil, "the members' first writes did not reach the table: \(unpublished ?? "")")
			return written
		}

		/// Asks `member` for one more write of its key (SIGUSR1).
		private func write(_ member: PostgresFleet.Member, in written: inout [String: Int]) {
			written[member.name, default: 1] += 1
			member.process.send(SIGUSR1)
		}
	}
}
#endif
