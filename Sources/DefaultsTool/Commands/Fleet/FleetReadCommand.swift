import ArgumentParser
import Defaults

struct FleetReadCommand: FleetVerb {
	static let verb = "read"
	static let operands = "[<key>] [--json]"
	static let abstract = "Print every setting of the fleet's remote (or one key), with who changed it and when."
	static let discussion = """
		One line per key, sorted: the value as 'defaults read' prints it, then the time of \
		the change (ISO 8601, UTC) and the device that made it; a deleted key shows as \
		'(deleted)' until a process or the tool writes it again.
		  greeting = hello  [2026-11-22T08:30:00.123Z by web-1#4f2a]
		  maintenanceMode (deleted)  [2026-11-22T08:31:02.000Z by defaults-tool@ops-1]
		With --json: an object of the keys, each {"value", "deleted", "device", "time", \
		"milliseconds", "counter"} ("value" absent when deleted); with a key, that object alone. \
		"value" is in the form of the library's JSON export: data is {"$data": "<base64>"}, a \
		date {"$date": "<ISO 8601>"}, so a date or data never reads as a string.
		"""

	@OptionGroup var options: FleetReadingOptions

	func run() throws {
		let remote = try options.open(usage: Self.usage)
		let entries = try remote.perform { try await $0.entries() }
		if let key = options.key {
			guard let entry = entries[key] else {
				throw ToolError.noSuchFleetKey(key, remote: remote.name)
			}

			Output.print(options.output.json ? JSONFormat.render(.dictionary(FleetEntryText.fields(of: entry)), pretty: true) : FleetEntryText.line(key: key, entry))
			return
		}

		if options.output.json {
			Output.print(JSONFormat.render(.dictionary(entries.mapValues { .dictionary(FleetEntryText.fields(of: $0)) }), pretty: true))
		} else {
			for (key, entry) in entries.sorted(by: { $0.key < $1.key }) {
				Output.print(FleetEntryText.line(key: key, entry))
			}
		}
	}
}
