#if Postgres
@testable import DefaultsPostgres
import Foundation
import Testing
@testable import Defaults

/// The relay's trust in its files at each use, and how it heals them, with no server: the files in a temporary folder,
/// and two leaderships of one process contending for `leader.lock` as two processes do (issue 39, items 3, 5, 6 and 9).
@Suite("Host relay: trust at every use, and damaged files set aside (rules, no server)")
struct HostRelayTrustRulesTests {
	private func entry(_ value: Int, _ milliseconds: Int64) -> Defaults.RemoteEntry {
		Defaults.RemoteEntry(value: .init(value), timestamp: Defaults.SyncTimestamp(milliseconds: milliseconds, counter: 0, device: "d"))
	}

	private var now: Int64 {
		HybridLogicalClock.systemMilliseconds()
	}

	@Test("a relay file is read only as a regular file of this user that no one else may write, within the size limit; anything else is damaged")
	func readOnlyTrustedFiles() throws {
		let folder = try TemporaryRelayFolder()
		let url = folder.url.appendingPathComponent("mirror.plist")
		#expect(try RelayFile.read(url) == nil, "no file")
		try RelayFile.write(["term": .string("t")], to: url)
		#expect(try RelayFile.read(url) == ["term": .string("t")])

		var status = stat()
		#expect(lstat(url.path, &status) == 0 && status.st_mode & 0o777 == 0o600, "written private to the user")
		chmod(url.path, 0o622)
		#expect(failure(reading: url)?.isDamaged == true, "writable by others")
		chmod(url.path, 0o600)
		#expect(truncate(url.path, off_t(FileLimits.maximumFileSize) + 1) == 0)
		#expect(failure(reading: url)?.isDamaged == true, "over the size limit")
		unlink(url.path)
		#expect(mkfifo(url.path, 0o600) == 0)
		#expect(failure(reading: url)?.reason.contains("not a regular file") == true, "a FIFO, never waited on")
		unlink(url.path)
		let target = folder.url.appendingPathComponent("target.plist")
		try RelayFile.write(["term": .string("t")], to: target)
		#expect(symlink(target.path, url.path) == 0)
		#expect(failure(reading: url)?.reason == "is a symbolic link", "a link, not followed")
		unlink(url.path)
		try Data("bplist00 broken".utf8).write(to: url)
		chmod(url.path, 0o600)
		#expect(failure(reading: url)?.isDamaged == true, "not a property list")

		var owned = stat()
		owned.st_mode = S_IFREG | 0o600
		owned.st_uid = geteuid() &+ 1
		#expect(RelayFile.problem(with: owned)?.contains("another user") == true)
	}

	@Test("a damaged file is moved aside with the suite files' naming, kept for the user; the message names it")
	func setAside() throws {
		let folder = try TemporaryRelayFolder()
		let url = folder.url.appendingPathComponent("mirror.plist")
		#expect(mkfifo(url.path, 0o600) == 0)
		let damaged = try #require(failure(reading: url))
		let message = RelayFile.setAside(damaged)
		#expect(message.contains(url.path) && message.contains("moved aside"), "\(message)")
		let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
		#expect(names.count == 1 && names[0].hasPrefix("mirror.unreadable-") && names[0].hasSuffix(".plist"), "\(names)")
	}

	@Test("damage that repeats keeps the newest three copies aside, never a disk's worth")
	func setAsideCopiesAreBounded() throws {
		let folder = try TemporaryRelayFolder()
		let url = folder.url.appendingPathComponent("mirror.plist")
		var messages: [String] = []
		for _ in 0..<6 {
			#expect(mkfifo(url.path, 0o600) == 0)
			messages.append(RelayFile.setAside(try #require(failure(reading: url))))
		}

		let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
		#expect(names.count == RelayFile.keptAsides && names.allSatisfy { $0.hasPrefix("mirror.unreadable-") }, "\(names)")
		#expect(messages.last?.contains("older copy removed") == true || messages.last?.contains("older copies removed") == true, "\(messages)")

		// Each writer's outbox file has a name of its own: their copies are counted together, the mirror's apart.
		for writer in 0..<5 {
			let outbox = folder.url.appendingPathComponent("\(HostRelayFiles.outboxPrefix)\(100 + writer)-w\(writer).plist")
			#expect(mkfifo(outbox.path, 0o600) == 0)
			RelayFile.setAside(try #require(failure(reading: outbox)))
		}

		let all = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
		#expect(all.filter { $0.hasPrefix(HostRelayFiles.outboxPrefix) }.count == RelayFile.keptAsides, "\(all)")
		#expect(all.filter { $0.hasPrefix("mirror.") }.count == RelayFile.keptAsides, "\(all)")

		// The rule alone: newest by time, then by name.
		let asides = [("a", 5), ("b", 9), ("c", 7), ("d", 9), ("e", 1)].map { (name: $0.0, modified: $0.1) }
		#expect(RelayFile.asidesToRemove(asides, keeping: 3) == ["a", "e"])
		#expect(RelayFile.asidesToRemove(asides, keeping: 10).isEmpty)
	}

	@Test("outbox files: only `outbox-<pid>-<random>.plist`; a damaged one is set aside, an entry stamped beyond any real clock is left out, both named")
	func outboxTrust() throws {
		let folder = try TemporaryRelayFolder()
		let files = HostRelayFiles(folder: folder.url)
		#expect(HostRelayFiles.isOutboxFile("outbox-12-0b7c.plist"))
		#expect(!HostRelayFiles.isOutboxFile("outbox-12-0b7c.unreadable-20261128T060000.000.plist"), "a file set aside")
		#expect(!HostRelayFiles.isOutboxFile(".outbox-12-0b7c.plist.12.34.tmp"), "a temporary file")

		try files.addToOutbox(["a": entry(1, 10)])
		let future = now + Defaults.SyncTimestamp.maximumLead + 86_400_000
		let planted = try files.addToOutbox(["b": entry(2, future), "c": entry(3, 20)]).file
		let garbage = folder.url.appendingPathComponent("outbox-1-garbage.plist")
		try Data("not a plist".utf8).write(to: garbage)
		chmod(garbage.path, 0o600)

		let waiting = files.waitingEntries(now: now)
		#expect(waiting.entries.mapValues { $0.value?.get(Int.self) } == ["a": 1, "c": 3])
		#expect(waiting.files.count == 2, "the damaged file is not among those to remove after publishing")
		#expect(waiting.problems.contains { $0.contains(planted.lastPathComponent) && $0.contains("'b'") && $0.contains("not published") }, "\(waiting.problems)")
		#expect(waiting.problems.contains { $0.contains(garbage.path) && $0.contains("moved aside") }, "\(waiting.problems)")
		#expect(!FileManager.default.fileExists(atPath: garbage.path))
		#expect(files.waitingEntries(now: now).problems.count == 1, "the damaged file is reported once; the refused entry each time its file is read")
	}

	@Test("a lock file that is a FIFO or a link is set aside by the next election, which then leads; a link's target is never made")
	func damagedLockFile() throws {
		for kind in ["fifo", "link", "foreign mode", "hard link"] {
			let folder = try TemporaryRelayFolder()
			let files = HostRelayFiles(folder: folder.url)
			let target = folder.url.appendingPathComponent("elsewhere")
			switch kind {
			case "fifo":
				#expect(mkfifo(files.leaderLock.path, 0o600) == 0)
			case "link":
				#expect(symlink(target.path, files.leaderLock.path) == 0)
			case "hard link":
				// Written in place by its leader: through another name, it would write someone's file.
				#expect(FileManager.default.createFile(atPath: target.path, contents: Data("someone's".utf8), attributes: [.posixPermissions: 0o600]))
				#expect(link(target.path, files.leaderLock.path) == 0)
			default:
				#expect(FileManager.default.createFile(atPath: files.leaderLock.path, contents: Data(), attributes: [.posixPermissions: 0o666]))
				chmod(files.leaderLock.path, 0o666)
			}

			let leadership = HostRelayLeadership(lockFile: files.leaderLock)
			#expect(leadership.tryToLead() == nil, "\(kind): the first attempt sets it aside")
			#expect(leadership.tryToLead() != nil, "\(kind): the next one leads")
			if kind == "hard link" {
				#expect(FileManager.default.contents(atPath: target.path) == Data("someone's".utf8), "\(kind): written through")
			} else {
				#expect(!FileManager.default.fileExists(atPath: target.path), "\(kind): the link's target was made")
			}
			let kept = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix("leader.unreadable-") }
			#expect(kept.count == 1, "\(kind): \(kept)")
			leadership.resign()
		}
	}

	@Test("temporaries of writers that are gone are removed; a running writer's are kept")
	func abandonedTemporaries() throws {
		let folder = try TemporaryRelayFolder()
		let files = HostRelayFiles(folder: folder.url)
		// A process id no process has: above the kernel's limit.
		let gone = folder.url.appendingPathComponent(".outbox-1-x.plist.4194305.77.tmp")
		let running = folder.url.appendingPathComponent(".mirror.plist.\(getppid()).78.tmp")
		for url in [gone, running] {
			try Data().write(to: url)
		}

		files.removeAbandonedTemporaries()
		#expect(!FileManager.default.fileExists(atPath: gone.path))
		#expect(FileManager.default.fileExists(atPath: running.path))
	}

	@Test("a removed folder is made again, private to the user; a folder others may write to is a trust problem")
	func folderIsPreparedAndChecked() throws {
		let folder = try TemporaryRelayFolder()
		let relay = folder.url.appendingPathComponent("defaults-relay/postgres-x", isDirectory: true)
		let files = HostRelayFiles(folder: relay)
		#expect(files.prepareFolder() == nil)
		var status = stat()
		#expect(lstat(relay.path, &status) == 0 && status.st_mode & 0o777 == 0o700)
		try FileManager.default.removeItem(at: folder.url.appendingPathComponent("defaults-relay"))
		#expect(files.prepareFolder() == nil, "made again, parent too")
		#expect(lstat(relay.path, &status) == 0 && status.st_mode & 0o777 == 0o700)
		chmod(relay.path, 0o777)
		#expect(files.prepareFolder()?.contains("others may write") == true)
	}

	@Test("the leader's reading and publishing problems are relayed apart: each clears only when its own operation works")
	func problemsPerOperation() throws {
		let folder = try TemporaryRelayFolder()
		let files = HostRelayFiles(folder: folder.url)
		let leadership = HostRelayLeadership(lockFile: files.leaderLock)
		defer { leadership.resign() }
		let term = try #require(leadership.tryToLead())
		let down = Defaults.PostgresRemoteStoreError.unusableTable("its column value is not of type bytea")

		try files.replaceMirror(with: ["a": entry(1, 10)], readSince: nil, term: term)
		try files.recordProblem(down, of: .publishing, term: term)
		var mirror = try #require(try files.mirror(of: term))
		#expect(mirror.publishingProblem == down && mirror.readingProblem == nil, "a follower's read keeps working")
		try files.replaceMirror(with: ["a": entry(1, 10)], readSince: mirror.sequence, term: term)
		mirror = try #require(try files.mirror(of: term))
		#expect(mirror.publishingProblem == down, "a read that works does not clear the publishing problem")

		try files.recordProblem(down, of: .reading, term: term)
		try files.mergeIntoMirror(["b": entry(2, 20)], term: term)
		mirror = try #require(try files.mirror(of: term))
		#expect(mirror.publishingProblem == nil && mirror.readingProblem == down, "a publication that works clears only its own")
		#expect(mirror.entries?["b"] != nil)
	}

	@Test("a damaged mirror is set aside by the leader's next edit and rebuilt")
	func damagedMirrorRebuilt() throws {
		let folder = try TemporaryRelayFolder()
		let files = HostRelayFiles(folder: folder.url)
		let leadership = HostRelayLeadership(lockFile: files.leaderLock)
		defer { leadership.resign() }
		let term = try #require(leadership.tryToLead())
		#expect(symlink("/nonexistent/elsewhere", files.mirror.path) == 0)
		#expect(throws: RelayFile.Failure.self) { try files.mirror(of: term) }
		try files.replaceMirror(with: ["a": entry(1, 10)], readSince: nil, term: term)
		#expect(try files.mirror(of: term)?.entries?["a"] != nil)
		#expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).contains { $0.hasPrefix("mirror.unreadable-") })
	}

	@Test("a writer's later hand-over replaces its earlier outbox files only when it holds each of their keys, as new or newer")
	func replacedHandOvers() {
		let first = URL(fileURLWithPath: "/relay/outbox-1-a.plist")
		let second = URL(fileURLWithPath: "/relay/outbox-1-b.plist")
		let handed = [first: ["a": entry(1, 10).timestamp], second: ["a": entry(1, 10).timestamp, "b": entry(1, 30).timestamp]]
		#expect(HostRelay.replaced(handed, by: ["a": entry(2, 10), "b": entry(2, 20)]) == [first], "b is older than the second file's")
		#expect(Set(HostRelay.replaced(handed, by: ["a": entry(2, 11), "b": entry(2, 30), "c": entry(1, 1)])) == [first, second])
		#expect(HostRelay.replaced(handed, by: ["b": entry(2, 40)]).isEmpty, "a is not in it")
	}

	private func failure(reading url: URL) -> RelayFile.Failure? {
		do {
			_ = try RelayFile.read(url)
			return nil
		} catch {
			return error
		}
	}
}

#endif
