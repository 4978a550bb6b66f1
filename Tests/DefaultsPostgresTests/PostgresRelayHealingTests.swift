#if Postgres
@testable import Defaults
import DefaultsTestSupport
import Foundation
import Testing

extension PostgresTests {
	/**
	A host's relay folder and files damaged, removed or made untrustworthy while its processes run, and the
	problems a relay carries to its followers (issue 39, items 3, 5, 6 and 9): real processes, the real server.
	*/
	@Suite("A relay that heals, and trusts its files only as they are", .enabled(if: PostgresTestServer.isAvailable))
	struct RelayHealing {
		/// An election (1 s), a set-aside and a leader's first read, then a publication: a debug build on 2 busy cores.
		static let bound = Duration.seconds(10)

		/// Ways a relay file can be damaged while its processes run.
		enum Damage: String, CaseIterable, CustomTestStringConvertible {
			case garbageOutbox, hugeOutbox, fifoMirror, hugeMirror, linkedMirror, fifoLock, linkedLock, linkedBell

			var testDescription: String {
				rawValue
			}

			/// The relay file the damage is done to, as the messages name it.
			var fileName: String {
				switch self {
				case .garbageOutbox, .hugeOutbox: "outbox-"
				case .fifoMirror, .hugeMirror, .linkedMirror: "mirror.plist"
				case .fifoLock, .linkedLock: "leader.lock"
				case .linkedBell: "outbox.bell"
				}
			}

			/// Does the damage in `folder`; a link points at `target`, which must never be made.
			func apply(in folder: URL, linkTarget target: URL) throws {
				let path = folder.appendingPathComponent(self == .garbageOutbox || self == .hugeOutbox ? "outbox-1-\(UUID().uuidString.lowercased()).plist" : fileName).path
				unlink(path)
				switch self {
				case .garbageOutbox:
					try Data("bplist00 not really".utf8).write(to: URL(fileURLWithPath: path))
					chmod(path, 0o600)
				case .hugeOutbox, .hugeMirror:
					let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
					defer { close(descriptor) }
					// Sparse: 65 MiB that cost no disk.
					try #require(descriptor >= 0 && ftruncate(descriptor, 65 * 1_024 * 1_024) == 0)
				case .fifoMirror, .fifoLock:
					try #require(mkfifo(path, 0o600) == 0)
				case .linkedMirror, .linkedLock, .linkedBell:
					try #require(symlink(target.path, path) == 0)
				}
			}
		}

		@Test("a damaged relay file is set aside, named in a message, and rebuilt; every process's writes keep reaching the table and each other", arguments: Damage.allCases)
		func damagedFile(damage: Damage) async throws {
			let host = try await RelayHost()
			defer { host.close() }
			try await host.start(2)
			let folder = try #require(host.relayFolder)
			let target = host.sharing.deletingLastPathComponent().appendingPathComponent("chosen-by-another-\(UUID().uuidString)")
			defer { unlink(target.path) }
			// The leader's first rounds done: a mirror it is about to replace anyway would hide the damage.
			try await Task.sleep(for: .seconds(1))

			var written: [String: Int] = [:]
			var value = 0
			func isNamed() -> Bool {
				host.members.contains { $0.errorOutputText.split(separator: "\n").contains { $0.contains(damage.fileName) && $0.contains("moved aside") } }
			}

			// A leader's write of the mirror already under way when the damage is done replaces it unread (as it should):
			// the damage is done again until a process has come across it.
			for _ in 1...3 where !isNamed() {
				try damage.apply(in: folder, linkTarget: target)
				host.writeInEveryMember(&written)
				value = Int.random(in: 1_000...999_999)
				try await host.publishShared(value)
				_ = await eventually(timeout: .seconds(4)) { isNamed() }
			}

			let unpublished = await host.waitUntilTableHolds(written, timeout: Self.bound)
			#expect(unpublished == nil, "\(damage): the members' writes did not reach the table within \(Self.bound): \(unpublished ?? ""); \(host.errorOutput)")
			let missed = await host.membersThatMissed(value, timeout: Self.bound)
			#expect(missed.isEmpty, "\(damage): members \(missed) did not hear another device's write within \(Self.bound); \(host.errorOutput)")
			#expect(!FileManager.default.fileExists(atPath: target.path), "\(damage): a relay file was written through a link, to a path another chose")
			// Once more: the relay works as before, not only once.
			host.writeInEveryMember(&written)
			#expect(await host.waitUntilTableHolds(written, timeout: Self.bound) == nil, "\(damage): a second round of writes did not reach the table; \(host.errorOutput)")

			#expect(isNamed(), "\(damage): no message names the relay file \(damage.fileName) and says it was moved aside; \(host.errorOutput)")
			#expect(!host.errorOutput.contains("PostgreSQL did not answer"), "\(damage): a message blames PostgreSQL; \(host.errorOutput)")
			let kept = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.contains(".unreadable-") }
			#expect(!kept.isEmpty, "\(damage): the damaged file was not kept aside for the user")
		}

		@Test("the relay folder removed while its processes run is made again, a leader elected, and writes flow both ways")
		func removedFolder() async throws {
			let host = try await RelayHost()
			defer { host.close() }
			try await host.start(3)
			let folder = try #require(host.relayFolder)
			// As `rm -rf` does, again while the processes add files to it.
			#expect(await eventually(timeout: .seconds(5)) { (try? FileManager.default.removeItem(at: folder)) != nil })
			let removed = ContinuousClock.now

			var written: [String: Int] = [:]
			host.writeInEveryMember(&written)
			let value = Int.random(in: 1_000...999_999)
			try await host.publishShared(value)
			let unpublished = await host.waitUntilTableHolds(written, timeout: Self.bound)
			#expect(unpublished == nil, "after the folder was removed, the members' writes did not reach the table within \(Self.bound): \(unpublished ?? ""); \(host.errorOutput)")
			let missed = await host.membersThatMissed(value, timeout: Self.bound)
			#expect(missed.isEmpty, "after the folder was removed, members \(missed) did not hear another device's write within \(Self.bound) (the catch-up is 30 s); \(host.errorOutput)")
			print("relay folder removed: made again and both ways working after \(ContinuousClock.now - removed)")

			var status = stat()
			#expect(lstat(folder.path, &status) == 0 && status.st_mode & 0o777 == 0o700, "the folder was not made again, private to the user")
			#expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("leader.lock").path), "no leader was elected in the new folder")
		}

		@Test("a folder that stops being trustworthy while its processes run: each connects on its own, says so once, and publishes nothing planted in it")
		func folderStopsBeingTrustworthy() async throws {
			let host = try await RelayHost()
			defer { host.close() }
			try await host.start(2)
			let folder = try #require(host.relayFolder)

			// As `chmod -R a+rwX ~/.config` would, then another user's entry stamped 10,000 s ahead (root plays that user).
			try #require(chmod(folder.path, 0o777) == 0)
			let planted = folder.appendingPathComponent("outbox-1-\(UUID().uuidString.lowercased()).plist")
			let stamp = Defaults.SyncTimestamp(milliseconds: HybridLogicalClock.systemMilliseconds() + 10_000_000, counter: 0, device: "intruder")
			try PropertyListFileContents.encode(["shared": Defaults.RemoteEntry(value: 666, timestamp: stamp).propertyListValue], for: planted.path).write(to: planted)
			chmod(planted.path, 0o666)
			if geteuid() == 0 {
				chown(planted.path, 65_534, 65_534)
			}

			let switched = await eventually(timeout: Self.bound) {
				host.members.allSatisfy { $0.errorOutputText.contains("connects on its own from now on") }
			}
			#expect(switched, "not every member said it connects on its own: \(host.errorOutput)")

			var written: [String: Int] = [:]
			host.writeInEveryMember(&written)
			let value = Int.random(in: 1_000...999_999)
			try await host.publishShared(value)
			#expect(await host.waitUntilTableHolds(written, timeout: Self.bound) == nil, "on their own, the members' writes did not reach the table; \(host.errorOutput)")
			#expect(await host.membersThatMissed(value, timeout: Self.bound).isEmpty, "on their own, the members did not hear another device's write; \(host.errorOutput)")
			#expect(try await host.entries()["shared"]?.value?.get(Int.self) == value, "the planted entry was published")
			for (index, member) in host.members.enumerated() {
				let lines = member.errorOutputText.components(separatedBy: "connects on its own from now on").count - 1
				#expect(lines == 1, "member\(index) said it \(lines) times: \(member.errorOutputText)")
			}
		}

		@Test("an entry in a trusted outbox stamped beyond any real clock is not published, and the leader names its file")
		func futureStampedOutboxEntry() async throws {
			let host = try await RelayHost()
			defer { host.close() }
			try await host.start(2)
			let folder = try #require(host.relayFolder)
			let planted = folder.appendingPathComponent("outbox-1-\(UUID().uuidString.lowercased()).plist")
			let future = Defaults.SyncTimestamp(milliseconds: HybridLogicalClock.systemMilliseconds() + Defaults.SyncTimestamp.maximumLead + 86_400_000, counter: 0, device: "clock-gone-wild")
			try PropertyListFileContents.encode(["shared": Defaults.RemoteEntry(value: 666, timestamp: future).propertyListValue], for: planted.path).write(to: planted)
			chmod(planted.path, 0o600)

			let reported = await eventually(timeout: Self.bound) {
				host.members.contains { $0.errorOutputText.contains(planted.lastPathComponent) && $0.errorOutputText.contains("was not published") }
			}
			#expect(reported, "no member named the outbox file whose entry was refused: \(host.errorOutput)")
			#expect(try await host.entries()["shared"] == nil, "the entry stamped beyond any real clock was published")
			#expect(!FileManager.default.fileExists(atPath: planted.path), "the refused file stayed in the outbox")
		}

		@Test("a follower reports a problem the leader relays once per cause, with the count when it ends, like a process connected on its own")
		func followerDiagnosticsAreBounded() async throws {
			let host = try await RelayHost()
			defer { host.close() }
			// Both write every 100 ms: about 40 writes each during the outage.
			try await host.start(2, environment: ["DEFAULTS_PG_MEMBER_BUSY_MS": "100"])
			try await host.execute("ALTER TABLE $T ALTER COLUMN value TYPE text USING encode(value, 'base64')")
			try await Task.sleep(for: .seconds(4))
			try await host.execute("ALTER TABLE $T ALTER COLUMN value TYPE bytea USING decode(value, 'base64')")
			var written: [String: Int] = [:]
			host.writeInEveryMember(&written)
			#expect(await host.waitUntilTableHolds(written, timeout: Self.bound) == nil, "after the repair, the members' writes did not reach the table; \(host.errorOutput)")
			try await Task.sleep(for: .seconds(1))

			for (index, member) in host.members.enumerated() {
				let lines = member.errorOutputText.split(separator: "\n").filter { $0.contains("column value") }
				// At most a start and an end for each of the two operations (publishing, reading), and the store's own report
				// of the broken table in the process connecting for the host, as in a process connected on its own.
				#expect(lines.count <= 5, "member\(index) reported the outage \(lines.count) times: \(lines.joined(separator: "\n"))")
				#expect(lines.contains { $0.contains("works again") }, "member\(index) did not report the end of the outage with its count: \(member.errorOutputText)")
			}
		}
	}
}
#endif
