import ArgumentParser
import Defaults
import Foundation

struct FleetWatchCommand: FleetVerb {
	static let verb = "watch"
	static let operands = "[<key>] [--json]"
	static let abstract = "Print every change to the fleet's settings (or one key) as it reaches the remote, until interrupted."
	static let discussion = """
		Each change is one line, written as it arrives: the time it was seen, the key, the \
		old and new values ((absent) when there was none, (deleted) for a deletion), and when \
		and by which device the change was made.
		  08:30:00.125 theme: light -> dark  [2026-11-22T08:30:00.123Z by web-1#4f2a]
		With --json, each line is a JSON object with "time", "key", "old" and "new" (each \
		{"value", "deleted", "device", "time", ...} as 'fleet read --json' prints an entry, \
		absent when there was none).
		"""

	@OptionGroup var options: FleetReadingOptions

	func run() throws {
		let remote = try options.open(usage: Self.usage)
		let (key, json) = (options.key, options.output.json)
		WatchCommand.stopOnInterrupt()
		try remote.perform { store in
			// Subscribed before the first read: nothing that lands in between is missed.
			let changes = store.changes()
			var known = try await store.entries()
			Output.note("Watching \(remote.name)\(key.map { " key '\($0)'" } ?? "") for changes; press Ctrl-C to stop.")
			for await names in changes {
				let entries = try await store.entries()
				let candidates = names.isEmpty ? Set(known.keys).union(entries.keys) : names
				for name in candidates.sorted() where key == nil || name == key {
					let (old, new) = (known[name], entries[name])
					if old != new {
						Output.print(json ? Self.jsonLine(name, old: old, new: new) : Self.textLine(name, old: old, new: new))
					}
				}

				known = entries
			}
		}
	}

	private static func textLine(_ key: String, old: Defaults.RemoteEntry?, new: Defaults.RemoteEntry?) -> String {
		let signature = new.map { "  \(FleetEntryText.signature(of: $0.timestamp))" } ?? ""
		return "\(WatchCommand.timestamp()) \(TextFormat.quotedIfNeeded(key)): \(old.map(FleetEntryText.value) ?? "(absent)") -> \(new.map(FleetEntryText.value) ?? "(absent)")\(signature)"
	}

	private static func jsonLine(_ key: String, old: Defaults.RemoteEntry?, new: Defaults.RemoteEntry?) -> String {
		var fields: [String: PropertyListValue] = ["time": .string(DateText.iso8601(Date())), "key": .string(key)]
		fields["old"] = old.map { .dictionary(FleetEntryText.fields(of: $0)) }
		fields["new"] = new.map { .dictionary(FleetEntryText.fields(of: $0)) }
		return JSONFormat.render(.dictionary(fields), pretty: false)
	}
}
