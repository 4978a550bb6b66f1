import Foundation

/**
The names of the files the library keeps beside a suite's: its temporaries,
its lock, its unreadable asides, and the same for its sync ledger
(`<suite>.defaults-sync.plist`). A suite name is only accepted when the
longest of them fits in a file name (`NAME_MAX`, 255 bytes), or every write
of the suite would fail.
*/
package enum SideFileNames {
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

	/// What a sync ledger's domain adds to its suite's name: the one place it is spelled (the ledger, the tool and the name-length check use it).
	package static let ledgerSuffix = ".defaults-sync"

	/// What a shared folder's sync journal adds to its device's name (`<device>.defaults-journal.plist`): the one place it is spelled (the shared folder and the tool's list of domains use it).
	package static let journalSuffix = ".defaults-journal"

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

/**
The temporary file an atomic replace writes before renaming it over its
target: `.<file>.<pid>.<random>.tmp`, next to the target.

The writer's process id in the name is what tells, later, whether the writer
can still rename it.
*/
package enum TemporaryFileName {
	package static func make(for url: URL) -> URL {
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
