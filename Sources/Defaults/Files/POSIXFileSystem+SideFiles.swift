import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/**
The temporary file an atomic replace writes before renaming it over its
target: `.<file>.<pid>.<random>.tmp`, next to the target.

The writer's process id in the name is what tells, later, whether the writer
can still rename it.
*/
enum TemporaryFileName {
	static func make(for url: URL) -> URL {
		url.deletingLastPathComponent().appendingPathComponent(name(for: url.lastPathComponent, writer: getpid(), random: .random(in: 0...UInt32.max)))
	}

	static func name(for fileName: String, writer: pid_t, random: UInt32) -> String {
		".\(fileName).\(writer).\(random).tmp"
	}

	/// The process that wrote `fileName`, when it is a temporary file of `url`.
	static func writer(of fileName: String, temporaryOf url: URL) -> pid_t? {
		let prefix = ".\(url.lastPathComponent)."
		guard fileName.hasPrefix(prefix), fileName.hasSuffix(".tmp") else {
			return nil
		}

		let parts = fileName.dropFirst(prefix.count).dropLast(".tmp".count).split(separator: ".", omittingEmptySubsequences: false)
		guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else {
			return nil
		}

		return pid_t(parts[0])
	}
}

/**
The names of the files the library keeps beside a suite's: its temporaries,
its lock, its unreadable asides, and the same for its sync ledger
(`<suite>.defaults-sync.plist`). A suite name is only accepted when the
longest of them fits in a file name (`NAME_MAX`, 255 bytes), or every write
of the suite would fail.
*/
enum SideFileNames {
	static let maximumFileNameBytes = 255

	static func lock(of fileName: String) -> String {
		".\(fileName).lock"
	}

	static func aside(of fileName: String, suffix: String) -> String {
		let url = URL(fileURLWithPath: fileName)
		return "\(url.deletingPathExtension().lastPathComponent).\(suffix).\(url.pathExtension)"
	}

	/// What the migration lock's name adds to its suite file's name (before the lock's own suffix).
	static let migrationExtension = "migration"

	/// The name whose lock is the migration lock of the suite file `url` (`.S.plist.migration.lock`); no file of that name is made.
	static func migrationLockTarget(of url: URL) -> URL {
		url.appendingPathExtension(migrationExtension)
	}

	/// Whether the lock file at `path` is a migration lock (`.S.plist.migration.lock`), which migrations hold while they run, rather than a suite file's.
	static func isMigrationLock(_ path: String) -> Bool {
		// `lock(of: "S.plist.migration")` is `.S.plist.migration.lock`.
		path.hasSuffix(".\(migrationExtension).lock")
	}

	/// What a sync ledger's domain adds to its suite's name.
	static let ledgerSuffix = ".defaults-sync"

	/// The length in bytes of the longest name derived from the suite `name`, each number in it at its widest; a ledger has no ledger of its own.
	static func longestDerivedName(ofSuite name: String) -> Int {
		let widestAside = "unreadable-\(String(repeating: "0", count: "yyyyMMddTHHmmss.SSS".count))-10000"
		let files = name.hasSuffix(ledgerSuffix) ? ["\(name).plist"] : ["\(name).plist", "\(name)\(ledgerSuffix).plist"]
		return files
			.flatMap { [$0, TemporaryFileName.name(for: $0, writer: .max, random: .max), lock(of: $0), lock(of: "\($0).\(migrationExtension)"), aside(of: $0, suffix: widestAside)] }
			.map(\.utf8.count)
			.max() ?? 0
	}
}

extension PreferencesFileSystem {
	/// A file system whose replace leaves no temporary files has none to remove.
	func removeAbandonedTemporaries(of url: URL) {}
}

extension POSIXFileSystem {
	/// Temporaries older than this are removed even when a process with the writer's id runs: the id was reused.
	static let abandonedTemporaryAge: TimeInterval = 60

	/// The files whose temporaries were already looked for in this process; once is enough, new leftovers need a crash.
	private static let cleanedFiles = Locked<Set<String>>([])

	/**
	Deletes the temporary files of `url` left by a writer killed between
	creating and renaming them, once per file and process.

	Every writer holds the suite's inter-process lock from creating its
	temporary file to renaming it, and so does the caller: a temporary present
	now was abandoned. To stay safe with writers that do not take the lock,
	one is only deleted when its writer has exited (or is a zombie), or when it
	is older than ``abandonedTemporaryAge`` (the writer's process id was reused).
	*/
	func removeAbandonedTemporaries(of url: URL) {
		// Temporaries are made beside the file written: the link's target, for a linked suite file.
		let url = (try? SymbolicLink.target(of: url)) ?? url
		guard Self.cleanedFiles.withLock({ $0.insert(url.path).inserted }) else {
			return
		}

		let folder = url.deletingLastPathComponent()
		let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
		for name in names {
			guard let writer = TemporaryFileName.writer(of: name, temporaryOf: url), writer != getpid() else {
				continue
			}

			let temporary = folder.appendingPathComponent(name)
			if !Self.isRunning(writer) || Self.age(of: temporary) > Self.abandonedTemporaryAge {
				unlink(temporary.path)
			}
		}
	}

	/**
	Renames the file next to itself with `suffix` inserted before the extension.

	Unreadable files can be set aside many times within one timestamp's
	resolution, by several processes; none may replace another. The name is
	claimed first with `O_EXCL`, which fails when any file has it, and the next
	free name (`-2`, `-3`, …) is tried; the rename then only replaces the
	claim.
	*/
	package func moveAside(_ url: URL, suffix: String) throws(Defaults.PersistenceError) -> URL {
		let folder = url.deletingLastPathComponent()
		for attempt in 1...10_000 {
			let candidate = attempt == 1 ? suffix : "\(suffix)-\(attempt)"
			let aside = folder.appendingPathComponent(SideFileNames.aside(of: url.lastPathComponent, suffix: candidate))
			let claim = open(aside.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
			guard claim >= 0 else {
				if errno == EEXIST {
					continue
				}

				throw failure("move aside", url)
			}

			close(claim)
			guard rename(url.path, aside.path) == 0 else {
				let error = failure("move aside", url)
				unlink(aside.path)
				throw error
			}

			return aside
		}

		throw .fileOperationFailed(operation: "move aside", path: url.path, reason: "10,000 names for the moved file are taken")
	}

	/// Whether a process with this id exists and has not exited: a zombie (exited, not reaped yet) does not count.
	private static func isRunning(_ pid: pid_t) -> Bool {
		guard kill(pid, 0) == 0 || errno == EPERM else {
			return false
		}

		guard
			let status = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
			let endOfName = status.lastIndex(of: ")")
		else {
			return true
		}

		let state = status[status.index(after: endOfName)...].first { $0 != " " }
		return state != "Z" && state != "X"
	}

	private static func age(of url: URL) -> TimeInterval {
		var info = stat()
		guard stat(url.path, &info) == 0 else {
			return 0
		}

		return Date().timeIntervalSince1970 - (TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9)
	}
}
