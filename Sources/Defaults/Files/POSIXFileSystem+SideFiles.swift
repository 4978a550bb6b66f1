import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension PreferencesFileSystem {
	/// A file system whose replace leaves no temporary files has none to remove.
	package func removeAbandonedTemporaries(of url: URL) {}
}

extension POSIXFileSystem {
	/// Temporaries older than this are removed even when a process with the writer's id runs: the id was reused.
	static let abandonedTemporaryAge: TimeInterval = 60

	/**
	Deletes the temporary files of `url` left by a writer killed between
	creating and renaming them, once per file and process.

	Every writer holds the suite's inter-process lock from creating its
	temporary file to renaming it, and so does the caller: a temporary present
	now was abandoned. To stay safe with writers that do not take the lock,
	one is only deleted when its writer has exited (or is a zombie), or when it
	is older than ``abandonedTemporaryAge`` (the writer's process id was reused).
	*/
	package func removeAbandonedTemporaries(of url: URL) {
		// Temporaries are made beside the file written: the link's target, for a linked suite file.
		let url = (try? SymbolicLink.target(of: url)) ?? url
		guard DefaultsSystem.cleanedFiles.withLock({ $0.insert(url.path).inserted }) else {
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
