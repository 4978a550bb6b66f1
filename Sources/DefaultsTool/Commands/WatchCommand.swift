import ArgumentParser
import Defaults
import Foundation
#if canImport(Glibc)
import Glibc
#endif

struct WatchCommand: ParsableCommand {
	static let usage = "defaults watch <domain> [<key>]"

	static let configuration = CommandConfiguration(
		commandName: "watch",
		abstract: "Print every change to a domain (or one key), by any process, until interrupted.",
		usage: "\(usage)\ndefaults watch --path <file> [<key>]",
		discussion: """
			Each change is one line: the time, the key, and its old and new values \
			((absent) when there was none). With --json, each line is a JSON object with \
			"time", "key", and "old" and "new" when present. The file is compared each time \
			it is replaced; versions replaced faster than they can be read (within \
			microseconds) are reported together, as the net change.
			"""
	)

	@OptionGroup var target: TargetOptions
	@OptionGroup var output: OutputOptions

	@Argument(help: ArgumentHelp("The domain, then optionally a key.", valueName: "domain> <key"))
	var arguments: [String] = []

	func run() throws {
		var operands = try target.resolve(arguments, usage: Self.usage)
		let key = operands.nextIfPresent()
		try operands.finish()

		let folder = operands.file.url.deletingLastPathComponent()
		if target.path != nil, !FileManager.default.fileExists(atPath: folder.path) {
			throw ToolError.unreadableInput(source: folder.path, reason: "no such folder")
		}

		// Reads now, so an unreadable file is reported before watching starts.
		_ = try operands.contents()

		Self.stopOnInterrupt()
		let json = output.json
		let watcher = try DomainWatcher(operands.file, key: key) { change in
			Output.print(json ? Self.jsonLine(change) : Self.textLine(change))
		}

		Output.note("Watching \(operands.name)\(key.map { " key '\($0)'" } ?? "") for changes; press Ctrl-C to stop.")
		withExtendedLifetime(watcher) {
			while true {
				pause()
			}
		}
	}

	/// Ends with status 0 on SIGINT or SIGTERM, even when started with those signals blocked (as some parents do).
	static func stopOnInterrupt() {
		signal(SIGINT) { _ in _exit(0) }
		signal(SIGTERM) { _ in _exit(0) }
		var signals = sigset_t()
		sigemptyset(&signals)
		sigaddset(&signals, SIGINT)
		sigaddset(&signals, SIGTERM)
		pthread_sigmask(SIG_UNBLOCK, &signals, nil)
	}

	private static func textLine(_ change: DomainWatcher.Change) -> String {
		let old = change.old.map { TextFormat.render($0, style: .singleLine) } ?? "(absent)"
		let new = change.new.map { TextFormat.render($0, style: .singleLine) } ?? "(absent)"
		return "\(timestamp()) \(TextFormat.quotedIfNeeded(change.key)): \(old) -> \(new)"
	}

	private static func jsonLine(_ change: DomainWatcher.Change) -> String {
		var entries: [String: PropertyListValue] = ["time": .string(DateText.iso8601(Date())), "key": .string(change.key)]
		entries["old"] = change.old
		entries["new"] = change.new
		return JSONFormat.render(.dictionary(entries), pretty: false)
	}

	static func timestamp() -> String {
		let formatter = DateFormatter()
		formatter.locale = Locale(identifier: "en_US_POSIX")
		formatter.dateFormat = "HH:mm:ss.SSS"
		return formatter.string(from: Date())
	}
}
