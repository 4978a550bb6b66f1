#if Postgres
import Defaults
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The outbox: one file per publication a process hands to the leader, and the bell that tells the leader of it.
extension HostRelayFiles {
	/// What waits in the outbox.
	struct Waiting {
		/// The newest entry per key.
		var entries: [String: Defaults.RemoteEntry] = [:]
		/// The outbox files the entries come from, to remove once published.
		var files: [URL] = []
		/// What to report: files set aside as damaged, entries refused for their stamps.
		var problems: [String] = []
	}

	/**
	The entries waiting to be published, newest per key, and the outbox files
	they come from. A damaged outbox file is set aside (its writer publishes
	again when its wait ends); an entry stamped further ahead of `now` than
	any real clock (the rule the table applies to its rows) is not published.
	*/
	func waitingEntries(now: Int64) -> Waiting {
		var waiting = Waiting()
		var handed: [[String: Defaults.RemoteEntry]] = []
		for name in outboxFileNames().sorted() {
			let url = folder.appendingPathComponent(name)
			let contents: [String: PropertyListValue]
			do throws(RelayFile.Failure) {
				// A file that vanished was published meanwhile.
				guard let read = try RelayFile.read(url) else {
					continue
				}

				contents = read
			} catch {
				// One that fails for the moment stays for the next attempt.
				if error.isDamaged {
					waiting.problems.append(RelayFile.setAside(error))
				}

				continue
			}

			var entries: [String: Defaults.RemoteEntry] = [:]
			for (key, value) in contents {
				guard let entry = Defaults.RemoteEntry(propertyListValue: value) else {
					waiting.problems.append("the relay file \(url.path) holds an entry for '\(key)' that is not one the relay wrote; it was not published")
					continue
				}

				if let reason = entry.timestamp.implausibility(at: now) {
					waiting.problems.append("the relay file \(url.path) holds an entry for '\(key)' stamped \(entry.timestamp): \(reason); it was not published")
					continue
				}

				entries[key] = entry
			}

			handed.append(entries)
			waiting.files.append(url)
		}

		waiting.entries = Self.newestPerKey(handed)
		return waiting
	}

	/// Whether any outbox file waits.
	func hasWaitingEntries() -> Bool {
		!outboxFileNames().isEmpty
	}

	private func outboxFileNames() -> [String] {
		((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter(Self.isOutboxFile)
	}

	/// Removes outbox files once what they held was published (or rejected); each file is never changed after it is written, so nothing newer is lost.
	func removeFromOutbox(_ files: [URL]) {
		for file in files {
			unlink(file.path)
		}
	}

	/// The newest entry per key of several hand-overs (the later one when two stamps are equal).
	static func newestPerKey(_ handed: [[String: Defaults.RemoteEntry]]) -> [String: Defaults.RemoteEntry] {
		var newest: [String: Defaults.RemoteEntry] = [:]
		for entries in handed {
			for (key, entry) in entries where newest[key].map({ entry.timestamp >= $0.timestamp }) ?? true {
				newest[key] = entry
			}
		}

		return newest
	}

	/// Whether `name` is an outbox file: `outbox-<pid>-<random>.plist`, with no other dot (not a temporary file, which
	/// starts with one, nor a damaged one set aside, `outbox-….unreadable-<time>.plist`).
	static func isOutboxFile(_ name: String) -> Bool {
		name.hasPrefix(outboxPrefix) && name.hasSuffix(outboxSuffix) && !name.dropFirst(outboxPrefix.count).dropLast(outboxSuffix.count).contains(".")
	}

	/// Hands entries to the leader: a new outbox file of this process, written whole before it appears; returns it, and
	/// what to report (a damaged bell set aside).
	@discardableResult
	func addToOutbox(_ entries: [String: Defaults.RemoteEntry]) throws(RelayFile.Failure) -> (file: URL, problems: [String]) {
		let url = folder.appendingPathComponent("\(Self.outboxPrefix)\(getpid())-\(UUID().uuidString.lowercased())\(Self.outboxSuffix)")
		try RelayFile.write(entries.mapValues(\.propertyListValue), to: url)
		return (url, ringOutboxBell())
	}

	/**
	Tells the leader that the outbox changed: a close after writing wakes its
	watch (no lock, no content). A bell that is not a file of this user's (a
	FIFO, a link) is set aside and made again; the leader also looks at every beat.
	*/
	private func ringOutboxBell() -> [String] {
		#if canImport(Glibc)
		var problems: [String] = []
		for _ in 1...2 {
			do throws(RelayFile.Failure) {
				if let descriptor = try RelayFile.open(outboxBell, O_WRONLY, creating: 0o600) {
					close(descriptor)
				}

				break
			} catch {
				guard error.isDamaged else {
					break
				}

				problems.append(RelayFile.setAside(error))
			}
		}

		return problems
		#else
		return []
		#endif
	}


	/// Whether `file` was moved aside as damaged (``RelayFile/setAside(_:)``): a copy named after it is in the folder.
	func isSetAside(_ file: URL) -> Bool {
		let base = file.deletingPathExtension().lastPathComponent
		return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).contains { $0.hasPrefix(base + ".") && $0.contains(".unreadable-") }
	}
}
#endif
