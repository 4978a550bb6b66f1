import ArgumentParser
import Defaults

struct FleetDeleteCommand: ParsableCommand {
	static let usage = "defaults fleet delete (--folder <path> | --postgres --namespace <name>) <key>"

	static let configuration = CommandConfiguration(
		commandName: "delete",
		abstract: "Remove a setting from the whole fleet: every process goes back to its default.",
		usage: usage,
		discussion: """
			Publishes a deletion (a tombstone), stamped as a write is, which every process \
			applies as a reset of the key; 'fleet read' shows the key as (deleted). A key the \
			remote does not hold is refused.
			"""
	)

	@OptionGroup var remote: FleetRemoteOptions

	@Argument(help: "The key.")
	var key: String

	func run() throws {
		try FleetPublication.validate(key: key)
		let remote = try remote.open(usage: Self.usage, forWriting: true)
		let key = key
		let publication = FleetPublication(key: key, change: { current in
			guard current != nil else {
				throw ToolError.noSuchFleetKey(key, remote: remote.name)
			}

			return nil
		}, valueBudget: .max)
		_ = try publication.publish(to: remote)
	}
}
